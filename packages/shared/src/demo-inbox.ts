import { z } from 'zod';

/** One mail or webhook the demo inbox received (GET /api/demo-inbox), as the server answers and the page reads it. */
export const demoInboxMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(['webhook', 'email']),
  channel: z.string(),
  sender: z.string().nullable(),
  recipients: z.array(z.string()),
  subject: z.string().nullable(),
  content_type: z.string().nullable(),
  body: z.string(),
  received_at: z.string(),
});

export const demoInboxSchema = z.object({
  enabled: z.boolean(),
  /** host:port of the demo mail server, when this process runs it. */
  smtp: z.string().nullable(),
  webhook: z.string().nullable(),
  keep: z.number(),
  messages: z.array(demoInboxMessageSchema),
});

export type DemoInboxMessage = z.infer<typeof demoInboxMessageSchema>;
export type DemoInbox = z.infer<typeof demoInboxSchema>;
