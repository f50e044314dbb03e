import { z } from 'zod';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX_LENGTH } from './search-text';

/** The kinds of rows the server searches; the palette adds its own `page` and action entries on the client. */
export const SEARCH_KINDS = ['check', 'config', 'component', 'incident', 'playbook'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

// Both parameters arrive as text and are checked by the handler, so a bad value answers with its own code
// (OD_SEARCH_QUERY, OD_SEARCH_LIMIT) rather than the generic OD_VALIDATION.
export const searchQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .describe(`The search text, at most ${SEARCH_TEXT_MAX_LENGTH} characters; matched against names and titles, ignoring case. Empty or missing: no results.`),
  limit: z.string().optional().describe(`How many results at most, 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}).`),
});

export const searchItemSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.string().describe('The uuid of the row'),
  title: z.string().describe('The name (or title) the row was matched by'),
  subtitle: z.string().optional().describe('What else identifies the row: type, status, display id'),
  url: z.string().describe("The web app's path of the row's page"),
});

export const searchResponseSchema = z.object({
  items: z.array(searchItemSchema).describe('Best match first: exact name, then name prefix, then a word of the name, then anywhere in it'),
});

export type SearchItem = z.infer<typeof searchItemSchema>;
