import { z } from 'zod';

export const CHECK_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export const checkHealthSchema = z.enum(CHECK_HEALTHS);
export type CheckHealth = z.infer<typeof checkHealthSchema>;

export const latencySchema = z.object({ p95: z.number().nullable(), p97: z.number().nullable(), p99: z.number().nullable() });

/** A check as GET /api/canary/api/summary returns it (spec 001 §3 'Check'); the server builds it, the web reads it. */
export const checkSummarySchema = z.object({
  id: z.guid(),
  name: z.string(),
  canary_id: z.guid(),
  canary_name: z.string(),
  namespace: z.string().nullable(),
  agent_id: z.guid().nullable(),
  agent_name: z.string().nullable(),
  type: z.string(),
  icon: z.string().nullable(),
  endpoint: z.string().nullable(),
  description: z.string().nullable(),
  owner: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  status: z.enum(['healthy', 'unhealthy']).nullable().describe('The stored result of the last run'),
  health: checkHealthSchema.describe(
    'Derived over the time range: a check passing now that failed at least once in it is a warning; never run is unknown',
  ),
  severity: z.string().nullable(),
  uptime: z.object({ passed: z.number().int(), failed: z.number().int() }),
  latency: latencySchema,
  last_runtime: z.string().nullable(),
  next_runtime: z.string().nullable(),
  last_transition_time: z.string().nullable(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type CheckSummary = z.infer<typeof checkSummarySchema>;

/** good: all healthy; unhealthy: none healthy nor warning; mixed otherwise (spec 001 §4). */
export const groupHealthSchema = z.enum(['good', 'mixed', 'unhealthy']);
export type GroupHealth = z.infer<typeof groupHealthSchema>;

export const summaryGroupSchema = z.object({
  key: z.string(),
  count: z.number().int(),
  healthy: z.number().int(),
  unhealthy: z.number().int(),
  warning: z.number().int(),
  unknown: z.number().int(),
  health: groupHealthSchema,
});
export type SummaryGroup = z.infer<typeof summaryGroupSchema>;

export const RANGE_SOURCES = ['raw', '1h', '1d'] as const;

/** GET /api/canary/api/summary. */
export const healthSummarySchema = z.object({
  checks_summary: z.array(checkSummarySchema),
  totalEntries: z.number().int().describe('Checks matching every filter, before paging'),
  counts: z
    .object({ total: z.number().int(), healthy: z.number().int(), unhealthy: z.number().int(), warning: z.number().int(), unknown: z.number().int() })
    .describe('Counts inside the selected tab, before the status filters'),
  tabs: z
    .array(z.object({ key: z.string(), count: z.number().int() }))
    .describe("'All' first, then the tab keys alphabetically; each counts the checks passing every filter, the status ones included"),
  groups: z.array(summaryGroupSchema),
  labels: z
    .record(z.string(), z.array(z.string()))
    .describe('Every label key with its values on the checks in scope, whatever the search and label filters: the filter options'),
  timeRange: z.object({ key: z.string(), since: z.string(), source: z.enum(RANGE_SOURCES), asOf: z.string() }),
});
export type HealthSummary = z.infer<typeof healthSummarySchema>;

export const checkSeriesPointSchema = z.object({
  time: z.string(),
  passed: z.number().int(),
  failed: z.number().int(),
  duration_avg: z.number().nullable(),
  duration_max: z.number().nullable(),
});
export type CheckSeriesPoint = z.infer<typeof checkSeriesPointSchema>;

/** GET /api/canary/api/details. */
export const checkDetailSchema = z.object({
  check: checkSummarySchema.extend({ spec: z.record(z.string(), z.unknown()), spec_yaml: z.string() }),
  uptime: z.object({ passed: z.number().int(), failed: z.number().int(), percentage: z.number().nullable() }),
  latency: latencySchema,
  series: z.object({ bucket: z.string(), points: z.array(checkSeriesPointSchema) }),
  relationships: z.object({
    configs: z.array(z.object({ id: z.guid(), name: z.string(), type: z.string() })),
    components: z.array(z.object({ id: z.guid(), name: z.string(), icon: z.string().nullable() })),
  }),
  timeRange: z.object({ key: z.string(), since: z.string(), source: z.enum(RANGE_SOURCES) }),
});
export type CheckDetail = z.infer<typeof checkDetailSchema>;

/** POST /api/canary/run/check/:id. */
export const checkRunStartedSchema = z.object({ message: z.string(), id: z.guid() });

const canaryColumns = {
  id: z.guid(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  schedule: z.string().nullable(),
  source: z.string(),
  agent_id: z.guid().nullable(),
  created_by: z.guid().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** A canary as GET, POST and PATCH /api/canary/canaries answer it, with its live checks. */
export const canaryRecordSchema = z.object({
  ...canaryColumns,
  spec: z.record(z.string(), z.unknown()),
  yaml: z.string().describe('The spec as the YAML editor shows it'),
  checks: z.array(z.object({ id: z.guid(), type: z.string(), name: z.string(), status: z.string().nullable() })),
});
export type CanaryRecord = z.infer<typeof canaryRecordSchema>;

/** GET /api/canary/canaries. */
export const canaryPageSchema = z.object({
  data: z.array(z.object({ ...canaryColumns, checks_count: z.number().int() })),
  total: z.number().int(),
});
export type CanaryPage = z.infer<typeof canaryPageSchema>;
