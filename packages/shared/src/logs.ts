import { z } from 'zod';

/** The kinds of log backend this product queries (issue #17); a spec holds exactly one of them. */
export const LOG_BACKEND_TYPES = ['file', 'loki', 'opensearch', 'elasticsearch', 'kubernetes'] as const;
export type LogBackendType = (typeof LOG_BACKEND_TYPES)[number];

/** Lines one logs call answers by default, and at most; the page asks for the most so it can scroll through them. */
export const LOG_LINES_DEFAULT_LIMIT = 1000;
export const LOG_LINES_MAX_LIMIT = 100_000;
/** The time range the logs page and call use when none is given. */
export const LOG_DEFAULT_START = '1h';

const labelMap = z.record(z.string(), z.string());

/**
 * Which components or configuration items a backend serves. Every field given must match: `kind` (component or
 * config, default both), `type` (a glob over the component or item type, e.g. `Kubernetes::*`), `name` (a glob) and
 * `labels` (each must be present with that value; an item's tags count as labels).
 */
export const logRouteSchema = z
  .strictObject({
    kind: z.enum(['component', 'config']).optional(),
    type: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    labels: labelMap.optional(),
  })
  .describe('Which components or configuration items this backend serves');
export type LogRoute = z.infer<typeof logRouteSchema>;

const connectionRef = z.string().min(1).describe('A stored connection, as connection://namespace/name or its id');

export const fileLogBackendSchema = z.strictObject({
  paths: z.array(z.string().min(1)).min(1).describe('Files or globs on the server host, under the allowed log roots'),
  format: z.enum(['auto', 'plain', 'json', 'logfmt']).optional().describe('How a line is parsed; auto tries json, then logfmt, then plain'),
  timestampField: z.string().min(1).optional().describe('The field holding the time in json and logfmt lines (default: time, ts or timestamp)'),
  messageField: z.string().min(1).optional().describe('The field holding the message in json and logfmt lines (default: msg or message)'),
  labels: labelMap.optional().describe('Labels added to every line of these files'),
});

export const lokiLogBackendSchema = z.strictObject({
  url: z.url().describe('The Loki base URL; the query_range API is called under it'),
  connection: connectionRef.optional(),
  query: z.string().min(1).optional().describe('A LogQL stream selector template; default: the route labels of the component or item'),
});

export const searchLogBackendSchema = z.strictObject({
  url: z.url().describe('The cluster base URL'),
  connection: connectionRef.optional(),
  index: z.string().min(1).describe('The index or index pattern to search'),
  timestampField: z.string().min(1).optional().describe('Default @timestamp'),
  messageField: z.string().min(1).optional().describe('Default message'),
  query: z.string().min(1).optional().describe('A query string template selecting the documents of the component or item'),
});

export const kubernetesLogBackendSchema = z.strictObject({
  connection: connectionRef.optional().describe('A kubernetes connection; default: the in-cluster service account'),
  namespace: z.string().min(1).optional(),
  labelSelector: z.string().min(1).optional().describe('A label selector template for the pods; default: the pod itself for a pod item'),
  container: z.string().min(1).optional(),
});

/** A `logging_backends.spec` as its author writes it (YAML or JSON): routes and exactly one backend block. */
export const logBackendSpecSchema = z
  .strictObject({
    routes: z.array(logRouteSchema).optional(),
    file: fileLogBackendSchema.optional(),
    loki: lokiLogBackendSchema.optional(),
    opensearch: searchLogBackendSchema.optional(),
    elasticsearch: searchLogBackendSchema.optional(),
    kubernetes: kubernetesLogBackendSchema.optional(),
  })
  .refine((spec) => LOG_BACKEND_TYPES.filter((type) => spec[type] !== undefined).length === 1, {
    message: `Give exactly one of ${LOG_BACKEND_TYPES.join(', ')}`,
  })
  .describe('Log backend spec');
export type LogBackendSpec = z.infer<typeof logBackendSpecSchema>;

export function logBackendTypeOf(spec: LogBackendSpec): LogBackendType | null {
  return LOG_BACKEND_TYPES.find((type) => spec[type] !== undefined) ?? null;
}

/** The spec as a JSON Schema (draft 2020-12), for editors that validate YAML or JSON as it is typed. */
export function logBackendSpecJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(logBackendSpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
}

/**
 * One log selector of a component or item (`components_with_logs.log_selectors`): its name is what the logs call
 * takes as `name`; `type` is the backend's kind and `labels` those the route matched on.
 */
export interface LogSelector {
  name: string;
  type: string;
  labels: Record<string, string>;
}

/** One log line (spec 000 §3): when, what and its labels. `id` is stable within one answer, for selection. */
export interface LogLine {
  id: string;
  timestamp: string | null;
  message: string;
  labels: Record<string, string>;
}

/**
 * `GET /api/logs?id=&name=&query=&start=&limit=`: lines newest first, the number of matching lines the backend
 * counted (`total`) and whether more matched than were returned (`truncated`).
 */
export interface LogsResponse {
  lines: LogLine[];
  total: number;
  truncated: boolean;
  backend: { id: string; name: string; type: LogBackendType };
}
