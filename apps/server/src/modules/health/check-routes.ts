import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { stringify } from 'yaml';
import { z } from 'zod';
import { queryFilterToTristate, type CheckDetail, type HealthSummary, type Role } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import type { EventBus } from '../../platform/event-bus';
import { secretEnvelopesFor } from '../../platform/sealed-redaction';
import { isJunitReportSpec } from './canary-spec';
import { loadCheckRange } from './check-range-queries';
import { loadRelationships } from './check-relationship-queries';
import { loadCheckSummary, loadSummaryJson, type StatsSource, type SummaryFilters } from './summary-queries';
import { rangeMinutes, sourceFor } from './time-window';
import { windowKeyFor, type UptimeWindows } from './uptime-windows';

/** Spec 001 §6: Run Now is for these roles, commander and responder included although they cannot edit canaries. */
const RUN_NOW_ROLES: ReadonlySet<Role> = new Set<Role>(['admin', 'editor', 'responder', 'commander']);
const DEFAULT_RANGE = '1d';

const csv = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? null : value.split(',').map((part) => part.trim()).filter((part) => part !== '')));

const groupKeysSchema = z.array(z.string().max(200)).max(1000);

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const summaryQuerySchema = z.object({
  timeRange: z.string().default(DEFAULT_RANGE),
  check: csv.pipe(z.array(z.uuid()).nullable()),
  canary_id: z.uuid().optional(),
  agent_id: z.uuid().optional(),
  type: csv,
  /** Health: 'warning' is a passing check that failed at least once in the time range. */
  status: csv.pipe(z.array(z.enum(['healthy', 'unhealthy', 'warning', 'unknown'])).nullable()),
  hidePassing: z.enum(['true', 'false']).default('false'),
  query: z.string().max(200).optional(),
  /** Query-form tristate (`env=prod,!team=payments`): a value is `key=value`; `!` excludes. */
  labels: z.string().max(4000).optional(),
  groupBy: z.string().max(200).optional(),
  /**
   * With groupBy, a JSON array of the group keys whose checks to return (the groups the table has open); the groups and
   * counts still cover every check. Without it every group's checks come back.
   */
  groups: z
    .string()
    .max(40_000)
    .optional()
    .transform((text, context) => {
      if (text === undefined) return null;
      const parsed = groupKeysSchema.safeParse(parseJsonOrUndefined(text));
      if (!parsed.success) {
        context.addIssue({ code: 'custom', message: 'is not a JSON array of at most 1000 group keys, each at most 200 characters' });
        return z.NEVER;
      }
      return parsed.data;
    }),
  tabBy: z.string().max(200).optional(),
  tab: z.string().max(200).optional(),
  sortBy: z.enum(['name', 'canary_name', 'status', 'uptime', 'latency', 'last_transition_time', 'last_runtime', 'type']).optional(),
  sortDesc: z.enum(['true', 'false']).default('false'),
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(10000).optional(),
  includeDeleted: z.enum(['true', 'false']).default('false'),
});
type SummaryQuery = z.infer<typeof summaryQuerySchema>;

export const checkDetailQuerySchema = z.object({ check: z.uuid(), start: z.string().default(DEFAULT_RANGE) });
type CheckDetailQuery = z.infer<typeof checkDetailQuerySchema>;

export const checkIdParamsSchema = z.object({ id: z.uuid() });

/** What the check routes read and tell: the database, the uptime windows the summary reads, and the event bus. */
export interface CheckRouteDeps {
  pool: pg.Pool;
  windows: UptimeWindows;
  bus: EventBus;
}

function parseLabels(text: string | undefined): Pick<SummaryFilters, 'labelsInclude' | 'labelsExclude'> {
  const include: Record<string, string[]> = {};
  const exclude: Record<string, string[]> = {};
  for (const [pair, state] of Object.entries(queryFilterToTristate(text))) {
    const at = pair.indexOf('=');
    if (at <= 0 || state === 0) continue;
    const target = state === 1 ? include : exclude;
    const key = pair.slice(0, at);
    target[key] = [...(target[key] ?? []), pair.slice(at + 1)];
  }
  return { labelsInclude: include, labelsExclude: exclude };
}

function resolveRange(text: string): { minutes: number; since: Date } {
  const minutes = rangeMinutes(text);
  if (minutes === null) throw errors.validation(`/timeRange '${text}' is not a time range (15m, 1h, 1d, 1w, 1mo, …)`);
  return { minutes, since: new Date(Date.now() - minutes * 60_000) };
}

function summaryFilters(query: SummaryQuery): SummaryFilters {
  return {
    checkIds: query.check,
    canaryId: query.canary_id ?? null,
    agentId: query.agent_id ?? null,
    types: query.type,
    query: query.query === undefined || query.query.trim() === '' ? null : query.query.trim(),
    includeDeleted: query.includeDeleted === 'true',
    ...parseLabels(query.labels),
  };
}

/** `GET /api/canary/api/summary`: uptime and latency from a range's totals table when it has one, else computed now. */
export async function sendHealthSummary(deps: CheckRouteDeps, query: SummaryQuery, reply: FastifyReply): Promise<FastifyReply> {
  if (query.groups !== null && query.groupBy === undefined) throw errors.validation('/groups names groups, so it needs groupBy');
  const { minutes, since } = resolveRange(query.timeRange);
  const source = sourceFor(minutes);
  const windowKey = windowKeyFor(query.timeRange);
  let stats: StatsSource;
  let asOf: Date;
  if (windowKey === null) {
    stats = { kind: 'computed', source, since };
    asOf = new Date();
  } else {
    asOf = await deps.windows.ensureFresh(windowKey);
    stats = { kind: 'window', windowKey };
  }
  const body = await loadSummaryJson(
    deps.pool,
    stats,
    summaryFilters(query),
    {
      statuses: query.status,
      hidePassing: query.hidePassing === 'true',
      groupBy: query.groupBy ?? null,
      tabBy: query.tabBy ?? null,
      tab: query.tab ?? null,
      sortBy: query.sortBy ?? null,
      sortDesc: query.sortDesc === 'true',
      offset: query.pageSize === undefined ? 0 : query.pageIndex * query.pageSize,
      limit: query.pageSize ?? null,
      groupKeys: query.groups,
    },
    { key: query.timeRange, since: since.toISOString(), source, asOf: asOf.toISOString() },
  );
  // PostgreSQL built the JSON; it goes out as it came, without a parse and a stringify of thousands of rows
  // (Fastify sends a string as it is, past the response serializer).
  return reply.type('application/json; charset=utf-8').send(body as unknown as HealthSummary);
}

/** `GET /api/canary/api/details`: one check over [since, now], its spec's secret envelopes only for who may edit it. */
export async function readCheckDetail(deps: CheckRouteDeps, query: CheckDetailQuery, roles: readonly Role[]): Promise<CheckDetail> {
  const { minutes, since } = resolveRange(query.start);
  const source = sourceFor(minutes);
  const summary = await loadCheckSummary(deps.pool, query.check, source, since);
  if (summary === null) throw errors.notFound('Check');
  const specRow = await deps.pool.query<{ spec: Record<string, unknown> }>('select spec from checks where id = $1', [summary.id]);
  // Only those who may edit the check get its envelopes (issue #31); spec_yaml is built from what they get.
  const spec = secretEnvelopesFor(roles, ['canaries'], specRow.rows[0]?.spec ?? {});
  // The tiles, the chart and the check's warning state all read this one set of rows.
  const range = await loadCheckRange(deps.pool, summary.id, since, minutes);
  const { passed, failed } = range.uptime;
  const health = summary.status === 'healthy' ? (failed > 0 ? 'warning' : 'healthy') : summary.health;
  return {
    // A junit report's spec is already a canary spec (its canary's check lists with resultMode: junit).
    check: { ...summary, health, uptime: range.uptime, latency: range.latency, spec, spec_yaml: stringify(isJunitReportSpec(spec) ? spec : { [summary.type]: [spec] }) },
    uptime: { passed, failed, percentage: passed + failed === 0 ? null : (passed / (passed + failed)) * 100 },
    latency: range.latency,
    series: range.series,
    relationships: await loadRelationships(deps.pool, summary.id),
    timeRange: { key: query.start, since: since.toISOString(), source },
  };
}

/**
 * `POST /api/canary/run/check/:id`: the route is declared as canary read, and only the Run Now roles get past this
 * (commander and responder have no canary write). The scheduler picks the check up at once.
 */
export async function runCheckNow(deps: CheckRouteDeps, checkId: string, roles: readonly Role[], reply: FastifyReply): Promise<FastifyReply> {
  if (!roles.some((role) => RUN_NOW_ROLES.has(role))) throw errors.forbidden('run a check');
  const result = await deps.pool.query('update checks set next_runtime = now() where id = $1 and deleted_at is null', [checkId]);
  if ((result.rowCount ?? 0) === 0) throw errors.notFound('Check');
  deps.bus.publish({ name: 'check.run-requested', payload: { id: checkId } });
  return reply.status(202).send({ message: 'You have successfully initiated the check run.', id: checkId });
}
