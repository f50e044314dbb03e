import { z } from 'zod';

/** The body of every error the API answers outside the Kratos-shaped auth routes: PostgREST's four fields. */
export const errorBodySchema = z
  .object({
    code: z.string().describe('OD… code; docs/errors.md lists them'),
    message: z.string(),
    details: z.string().nullable(),
    hint: z.string().nullable(),
  })
  .describe('Error');

export type ErrorBodyShape = z.infer<typeof errorBodySchema>;
