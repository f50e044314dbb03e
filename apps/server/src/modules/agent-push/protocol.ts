import { z } from 'zod';

/**
 * The wire format between a remote agent and its upstream (ADR 0056). Each outbox row travels as {kind, payload}; the
 * payload is the agent's own row, and upstream picks the columns it trusts from it (never an agent id).
 */

/** The most rows one push may carry; the agent forms smaller batches (AGENT_BATCH_ROWS). */
export const MAX_PUSH_ROWS = 5000;
/** The largest push body in bytes, above the server's default so a full batch of verbose results still fits. */
export const MAX_PUSH_BYTES = 16 * 1024 * 1024;

const text = (max: number) => z.string().max(max);
const json = z.unknown();

export const checkStatusPayload = z.object({
  canary: text(255).min(1),
  namespace: text(255).nullish(),
  type: text(100).min(1),
  name: text(255).min(1),
  description: text(4000).nullish(),
  endpoint: text(4000).nullish(),
  labels: z.record(z.string(), z.unknown()).nullish(),
  spec: json.optional(),
  time: z.string().datetime({ offset: true }),
  status: z.boolean(),
  duration: z.number().int().nullish(),
  message: text(100_000).nullish(),
  error: text(100_000).nullish(),
  details: json.optional(),
});

export const jobHistoryPayload = z.object({
  id: z.string().uuid(),
  name: text(255).min(1),
  resource_type: text(100).nullish(),
  resource_id: z.string().uuid().nullish(),
  status: z.enum(['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED']),
  success_count: z.number().int().nullish(),
  error_count: z.number().int().nullish(),
  duration_millis: z.number().int().nullish(),
  hostname: text(255).nullish(),
  time_start: z.string().nullish(),
  time_end: z.string().nullish(),
  details: json.optional(),
  created_at: z.string().nullish(),
});

export const configItemPayload = z.object({
  id: z.string().uuid(),
  external_id: z.array(text(1000)).max(100).nullish(),
  type: text(255).min(1),
  name: text(1000).min(1),
  description: text(100_000).nullish(),
  status: text(255).nullish(),
  health: z.enum(['healthy', 'unhealthy', 'warning', 'unknown']).nullish(),
  ready: z.boolean().nullish(),
  parent_id: z.string().uuid().nullish(),
  /** Upstream's id of the scraper that found the item (the agent maps its local copy back). */
  scraper_id: z.string().uuid().nullish(),
  tags: json.optional(),
  labels: json.optional(),
  properties: json.optional(),
  config: json.optional(),
  format: text(50).nullish(),
  source: text(1000).nullish(),
  last_scraped_time: z.string().nullish(),
  delete_reason: text(1000).nullish(),
  created_at: z.string().nullish(),
  deleted_at: z.string().nullish(),
});

export const configChangePayload = z.object({
  id: z.string().uuid(),
  config_id: z.string().uuid(),
  external_change_id: text(1000).nullish(),
  change_type: text(255).min(1),
  severity: z.enum(['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']).nullish(),
  source: text(1000).nullish(),
  summary: text(100_000).nullish(),
  diff: text(1_000_000).nullish(),
  details: json.optional(),
  patches: text(1_000_000).nullish(),
  fingerprint: text(255).nullish(),
  count: z.number().int().nullish(),
  first_observed: z.string().nullish(),
  external_created_by: text(1000).nullish(),
  created_at: z.string().nullish(),
});

export const pushRow = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('check_status'), payload: checkStatusPayload }),
  z.object({ kind: z.literal('job_history'), payload: jobHistoryPayload }),
  z.object({ kind: z.literal('config_item'), payload: configItemPayload }),
  z.object({ kind: z.literal('config_item_deleted'), payload: z.object({ id: z.string().uuid() }) }),
  z.object({ kind: z.literal('config_change'), payload: configChangePayload }),
]);
export type PushRow = z.infer<typeof pushRow>;

export const pushBody = z.object({
  batchId: z.string().uuid(),
  rows: z.array(pushRow).min(1).max(MAX_PUSH_ROWS),
});
export type PushBody = z.infer<typeof pushBody>;

export const pushReply = z.object({ applied: z.number().int(), duplicate: z.boolean() });

export const heartbeatBody = z.object({ hostname: text(255).optional(), version: text(100).optional() });

const specRow = z.object({
  id: z.string().uuid(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  labels: z.record(z.string(), z.unknown()),
  spec: z.unknown(),
  schedule: z.string().nullable(),
});
export const specsReply = z.object({ canaries: z.array(specRow), scrapers: z.array(specRow) });
export type SpecsReply = z.infer<typeof specsReply>;
export type SpecRow = z.infer<typeof specRow>;
