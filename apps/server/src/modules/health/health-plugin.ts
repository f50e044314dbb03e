import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { stringify } from 'yaml';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  canaryPageSchema,
  canaryRecordSchema,
  canarySpecJsonSchema,
  checkDetailSchema,
  checkRunStartedSchema,
  healthSummarySchema,
  queryFilterToTristate,
  type HealthSummary,
  type Role,
} from '@opsdeck/shared';
import type { DomainPlugin } from '../../platform/http';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { registerSchemaRoute } from '../../platform/schema-route';
import { mayReadSecretEnvelopes, redactSecretEnvelopes, secretEnvelopesFor } from '../../platform/sealed-redaction';
import { rowScopedTransform, writeHooksFor, type WriteTransform } from '../../data-api/write-hooks';
import { CANARY_LAYOUT, CHECK_LAYOUT, holdsSecrets, sealCanarySpec, sealCheckSpec, sealStoredSpecSecrets } from './canary-secrets';
import { CanaryReconciler, syncCanaryChecks } from './canary-sync';
import { CanarySpecError, checksFromCanarySpec, parseCanaryYaml, unwrapResource } from './canary-spec';
import { canaryUpdatedAt, getCanary, insertCanary, listCanaries, softDeleteCanary, updateCanary, type CanaryFields, type CanaryRecord } from './canary-store';
import { canaryRowsValidator, canarySpecRunsExec, checkRowsValidator, isExecCheckType, requireExecute } from './exec-permission';
import { CheckScheduler } from './check-scheduler';
import { checkSpecTargets } from './spec-targets';
import { isValidSchedule } from './schedule';
import { loadCheckRange, loadCheckSummary, loadRelationships, loadSummaryJson, type SummaryFilters, type StatsSource } from './summary-queries';
import { rangeMinutes, sourceFor } from './time-window';
import { UptimeWindows, windowKeyFor, WINDOW_REFRESH_AGE_MS } from './uptime-windows';

const READ = { resource: 'canaries', action: 'read' } as const;
const WRITE = { resource: 'canaries', action: 'write' } as const;
/** Spec 001 §6: Run Now is for these roles, commander and responder included although they cannot edit canaries. */
const RUN_NOW_ROLES: ReadonlySet<Role> = new Set<Role>(['admin', 'editor', 'responder', 'commander']);
const RECONCILE_MS = 5000;
const DEFAULT_RANGE = '1d';

const csv = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? null : value.split(',').map((part) => part.trim()).filter((part) => part !== '')));

const summaryQuery = z.object({
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
  tabBy: z.string().max(200).optional(),
  tab: z.string().max(200).optional(),
  sortBy: z.enum(['name', 'canary_name', 'status', 'uptime', 'latency', 'last_transition_time', 'last_runtime', 'type']).optional(),
  sortDesc: z.enum(['true', 'false']).default('false'),
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(10000).optional(),
  includeDeleted: z.enum(['true', 'false']).default('false'),
});

const canaryBody = z.object({
  name: z.string().trim().min(1, 'This field is required').max(255),
  namespace: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(4000).nullable().optional(),
  icon: z.string().max(255).nullable().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  schedule: z.string().max(200).nullable().optional(),
  spec: z.record(z.string(), z.unknown()).optional(),
  yaml: z.string().max(1024 * 1024).optional(),
});
const idParams = z.object({ id: z.uuid() });

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

/**
 * Spec from `yaml` text or a `spec` object, its secrets sealed (canary-secrets.ts); the schedule column follows the
 * spec's schedule unless given.
 */
function canaryFields(body: z.infer<typeof canaryBody>, current: CanaryFields | null, secretKey: Buffer, canaryId: string): CanaryFields {
  let spec: Record<string, unknown>;
  try {
    if (body.yaml !== undefined) spec = parseCanaryYaml(body.yaml);
    else if (body.spec !== undefined) spec = unwrapResource(body.spec);
    else if (current !== null) spec = current.spec;
    else throw new CanarySpecError(['spec: give the canary spec as `spec` (an object) or `yaml` (text)']);
    checksFromCanarySpec(spec);
  } catch (error) {
    if (error instanceof CanarySpecError) throw errors.invalidCanarySpec(error.issues.join('; '));
    throw error;
  }
  if (body.yaml !== undefined || body.spec !== undefined) spec = sealCanarySpec(secretKey, canaryId, spec).spec;
  const specSchedule = typeof spec.schedule === 'string' ? spec.schedule : null;
  const schedule = body.schedule !== undefined ? body.schedule : (specSchedule ?? current?.schedule ?? null);
  if (schedule !== null && !isValidSchedule(schedule)) throw errors.invalidCanarySpec(`schedule: '${schedule}' is not a valid schedule`);
  return {
    name: body.name,
    namespace: body.namespace ?? current?.namespace ?? 'default',
    description: body.description !== undefined ? body.description : (current?.description ?? null),
    icon: body.icon !== undefined ? body.icon : (current?.icon ?? null),
    labels: body.labels ?? current?.labels ?? {},
    schedule,
    spec,
  };
}

/**
 * Check rows hold their canary's secrets: a spec holding any is sealed for the canary the row names, or, for a PATCH
 * pinned to one check, the canary that check belongs to.
 */
function sealedCheckRows(pool: pg.Pool, secretKey: Buffer): WriteTransform {
  return async (rows, method, _principal, target) => {
    let pinnedCanary: string | null = null;
    if (method === 'PATCH' && target.id !== null && rows.some((row) => row.spec !== undefined && row.canary_id === undefined)) {
      const found = await pool.query<{ canary_id: string }>('select canary_id from checks where id::text = $1', [target.id]);
      pinnedCanary = found.rows[0]?.canary_id ?? null;
    }
    return rows.map((row) => {
      if (row.spec === undefined) return row;
      const canaryId = typeof row.canary_id === 'string' ? row.canary_id : pinnedCanary;
      if (canaryId === null) {
        if (holdsSecrets(CHECK_LAYOUT, row.spec)) throw errors.secretNeedsOneRow('check');
        return row;
      }
      return { ...row, spec: sealCheckSpec(secretKey, canaryId, row.spec).spec };
    });
  };
}

/** Exec checks in the spec, or live check rows of type exec (written through /api/db) that a sync would remove. */
function holdsExec(canary: CanaryRecord): boolean {
  return canarySpecRunsExec(canary.spec) || canary.checks.some((check) => isExecCheckType(check.type));
}

/**
 * The canary service of spec 001 §7 'Health and checks': the health summary and check detail read from the
 * rollups, Run Now, canary CRUD that turns specs into checks; and, outside the api role, the scheduler that runs
 * them and the reconciler that follows canary edits made elsewhere.
 */
export const healthPlugin: DomainPlugin = {
  name: 'health',
  async register(scoped, context: AppContext) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;
    const { secretKey } = context.config;
    const worker = context.config.role !== 'api';
    writeHooksFor(context.db).registerTransform(
      'canaries',
      rowScopedTransform(
        'spec',
        (spec) => holdsSecrets(CANARY_LAYOUT, spec),
        (id, spec) => sealCanarySpec(secretKey, id, spec).spec,
        () => errors.secretNeedsOneRow('canary'),
      ),
    );
    writeHooksFor(context.db).registerTransform('checks', sealedCheckRows(pool, secretKey));
    const checkSpecColumn = async (rows: ReadonlyArray<Record<string, unknown>>): Promise<void> => {
      for (const row of rows) if (row.spec !== undefined) await checkSpecTargets(pool, row.spec);
    };
    writeHooksFor(context.db).registerCheck('canaries', checkSpecColumn);
    writeHooksFor(context.db).registerCheck('checks', checkSpecColumn);
    writeHooksFor(context.db).register('canaries', canaryRowsValidator);
    writeHooksFor(context.db).register('checks', checkRowsValidator);
    const windows = new UptimeWindows(pool, (error) => app.log.error({ err: error }, 'uptime window refresh'));
    const scheduler = worker
      ? new CheckScheduler({
          pool,
          secretKey,
          bus: context.bus,
          leaseSeconds: context.config.leaseSeconds,
          onError: (error) => app.log.error({ err: error }, 'check scheduler'),
          onRecorded: (type, run) => context.metrics.checkRuns.inc({ type, result: run.result.pass ? 'pass' : 'fail' }),
        })
      : null;
    const reconciler = worker ? new CanaryReconciler(pool, (canaryId, message) => app.log.warn({ canaryId, message }, 'canary spec is not valid')) : null;

    if (scheduler !== null && reconciler !== null) {
      let reconciling: Promise<unknown> = Promise.resolve();
      const reconcile = (): void => {
        reconciling = reconciling
          .then(() => reconciler.pass())
          .then((synced) => {
            if (synced.length > 0) scheduler.wake();
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'canary reconcile'));
      };
      const timer = setInterval(reconcile, RECONCILE_MS);
      let refreshingWindows: Promise<unknown> = Promise.resolve();
      // A third of the refresh age: a window a dashboard reads is recomputed before any read finds it past that age.
      const windowTimer = setInterval(() => {
        refreshingWindows = windows.refreshRead().catch((error: unknown) => app.log.error({ err: error }, 'uptime window refresh'));
      }, WINDOW_REFRESH_AGE_MS / 3);
      const unsubscribe = [
        context.bus.subscribe('canary.updated', () => reconcile()),
        context.bus.subscribe('check.run-requested', () => scheduler.wake()),
      ];
      const startChecks = async (): Promise<void> => {
        // Before the first reconcile, so the checks it syncs get sealed specs; a failure must not keep checks from running.
        await sealStoredSpecSecrets(pool, secretKey).then(
          (report) => {
            if (report.canaries + report.checks > 0) app.log.info({ canaries: report.canaries, checks: report.checks }, 'sealed plaintext secrets in stored specs');
            for (const problem of report.problems) app.log.warn(problem, 'a stored spec holds a secret that cannot be sealed; edit the canary');
          },
          (error: unknown) => app.log.error({ err: error }, 'sealing stored spec secrets'),
        );
        reconcile();
        await reconciling;
        scheduler.start();
      };
      if (context.listens) app.addHook('onListen', startChecks);
      else app.addHook('onReady', startChecks);
      app.addHook('preClose', async () => {
        clearInterval(timer);
        clearInterval(windowTimer);
        await refreshingWindows;
        for (const stop of unsubscribe) stop();
        await reconciling;
        await scheduler.stop();
      });
    }

    /** Saved through this API: sync at once and run the canary's checks now. */
    async function applyCanary(id: string): Promise<void> {
      await syncCanaryChecks(pool, id, { reschedule: true });
      const updatedAt = await canaryUpdatedAt(pool, id);
      if (updatedAt !== null) reconciler?.markSynced(id, updatedAt);
      context.bus.publish({ name: 'canary.updated', payload: { id } });
      scheduler?.wake();
    }

    app.get(
      '/api/canary/api/summary',
      {
        config: { permission: READ },
        schema: {
          tags: ['health'],
          description:
            'Health summary: {checks_summary: Check[] (each with health: healthy, unhealthy, warning or unknown), totalEntries, ' +
            'counts {total, healthy, unhealthy, warning, unknown}, tabs [{key, count}], ' +
            'groups [{key, count, healthy, unhealthy, warning, unknown, health}], labels {key: values[]}, timeRange {key, since, source}}. ' +
            'A warning passes now but failed at least once in the time range. ' +
            'Uptime and latency come from the hourly (ranges up to 2d) or daily rollups, raw statuses below 1h.',
          querystring: summaryQuery,
          response: { 200: healthSummarySchema },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const { minutes, since } = resolveRange(q.timeRange);
        const source = sourceFor(minutes);
        const windowKey = windowKeyFor(q.timeRange);
        let stats: StatsSource;
        let asOf: Date;
        if (windowKey === null) {
          stats = { kind: 'computed', source, since };
          asOf = new Date();
        } else {
          asOf = await windows.ensureFresh(windowKey);
          stats = { kind: 'window', windowKey };
        }
        const body = await loadSummaryJson(
          pool,
          stats,
          {
            checkIds: q.check,
            canaryId: q.canary_id ?? null,
            agentId: q.agent_id ?? null,
            types: q.type,
            query: q.query === undefined || q.query.trim() === '' ? null : q.query.trim(),
            includeDeleted: q.includeDeleted === 'true',
            ...parseLabels(q.labels),
          },
          {
            statuses: q.status,
            hidePassing: q.hidePassing === 'true',
            groupBy: q.groupBy ?? null,
            tabBy: q.tabBy ?? null,
            tab: q.tab ?? null,
            sortBy: q.sortBy ?? null,
            sortDesc: q.sortDesc === 'true',
            offset: q.pageSize === undefined ? 0 : q.pageIndex * q.pageSize,
            limit: q.pageSize ?? null,
          },
          { key: q.timeRange, since: since.toISOString(), source, asOf: asOf.toISOString() },
        );
        // PostgreSQL built the JSON; it goes out as it came, without a parse and a stringify of thousands of rows
        // (Fastify sends a string as it is, past the response serializer).
        return reply.type('application/json; charset=utf-8').send(body as unknown as HealthSummary);
      },
    );

    app.get(
      '/api/canary/api/details',
      {
        config: { permission: READ },
        schema: {
          tags: ['health'],
          description:
            'Check detail: {check (as in the summary, plus spec and spec_yaml), uptime {passed, failed, percentage}, latency {p95, p97, p99}, ' +
            'series {bucket, points [{time, passed, failed, duration_avg, duration_max}]}, relationships {configs, components}}. ' +
            'Uptime, latency and series cover exactly [since, now] and are read together: the uptime is the sum of the points.',
          querystring: z.object({ check: z.uuid(), start: z.string().default(DEFAULT_RANGE) }),
          response: { 200: checkDetailSchema, ...errorResponses(404) },
        },
      },
      async (request) => {
        const { minutes, since } = resolveRange(request.query.start);
        const source = sourceFor(minutes);
        const summary = await loadCheckSummary(pool, request.query.check, source, since);
        if (summary === null) throw errors.notFound('Check');
        const specRow = await pool.query<{ spec: Record<string, unknown> }>('select spec from checks where id = $1', [summary.id]);
        // Only those who may edit the check get its envelopes (issue #31); spec_yaml is built from what they get.
        const spec = secretEnvelopesFor(request.principal?.roles ?? [], ['canaries'], specRow.rows[0]?.spec ?? {});
        // The tiles, the chart and the check's warning state all read this one set of rows.
        const range = await loadCheckRange(pool, summary.id, since, minutes);
        const { passed, failed } = range.uptime;
        const health = summary.status === 'healthy' ? (failed > 0 ? 'warning' : 'healthy') : summary.health;
        return {
          check: { ...summary, health, uptime: range.uptime, latency: range.latency, spec, spec_yaml: stringify({ [summary.type]: [spec] }) },
          uptime: { passed, failed, percentage: passed + failed === 0 ? null : (passed / (passed + failed)) * 100 },
          latency: range.latency,
          series: range.series,
          relationships: await loadRelationships(pool, summary.id),
          timeRange: { key: request.query.start, since: since.toISOString(), source },
        };
      },
    );

    app.post(
      '/api/canary/run/check/:id',
      {
        // Declared as canary read; the handler then allows only the Run Now roles (commander and responder have no canary write).
        config: { permission: READ },
        schema: { tags: ['health'], params: idParams, response: { 202: checkRunStartedSchema, ...errorResponses(404) } },
      },
      async (request, reply) => {
        const roles = request.principal?.roles ?? [];
        if (!roles.some((role) => RUN_NOW_ROLES.has(role))) throw errors.forbidden('run a check');
        const result = await pool.query('update checks set next_runtime = now() where id = $1 and deleted_at is null', [request.params.id]);
        if ((result.rowCount ?? 0) === 0) throw errors.notFound('Check');
        context.bus.publish({ name: 'check.run-requested', payload: { id: request.params.id } });
        return reply.status(202).send({ message: 'You have successfully initiated the check run.', id: request.params.id });
      },
    );

    app.get(
      '/api/canary/canaries',
      {
        config: { permission: READ },
        schema: {
          tags: ['health'],
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100), offset: z.coerce.number().int().min(0).default(0) }),
          response: { 200: canaryPageSchema },
        },
      },
      async (request) => listCanaries(pool, request.query),
    );

    app.get(
      '/api/canary/canaries/:id',
      { config: { permission: READ }, schema: { tags: ['health'], params: idParams, response: { 200: canaryRecordSchema, ...errorResponses(404) } } },
      async (request) => {
        const canary = await getCanary(pool, request.params.id);
        if (canary === null) throw errors.notFound('Canary');
        if (mayReadSecretEnvelopes(request.principal?.roles ?? [], ['canaries'])) return canary;
        // Readers who cannot edit the canary get no ciphertext (issue #31), in the YAML form either.
        const spec = redactSecretEnvelopes(canary.spec);
        return { ...canary, spec, yaml: stringify(spec) };
      },
    );

    app.post(
      '/api/canary/canaries',
      { config: { permission: WRITE }, schema: { tags: ['health'], body: canaryBody, response: { 201: canaryRecordSchema } } },
      async (request, reply) => {
        const id = randomUUID();
        const fields = canaryFields(request.body, null, secretKey, id);
        await checkSpecTargets(pool, fields.spec);
        if (canarySpecRunsExec(fields.spec)) requireExecute(request.principal?.roles ?? [], 'create a canary with exec checks');
        await insertCanary(pool, id, fields, request.principal?.personId ?? null);
        await applyCanary(id);
        const created = await getCanary(pool, id);
        if (created === null) throw new Error('a canary just created could not be read back');
        return reply.status(201).send(created);
      },
    );

    app.patch(
      '/api/canary/canaries/:id',
      {
        config: { permission: WRITE },
        schema: { tags: ['health'], params: idParams, body: canaryBody.partial(), response: { 200: canaryRecordSchema, ...errorResponses(404) } },
      },
      async (request) => {
        const current = await getCanary(pool, request.params.id);
        if (current === null) throw errors.notFound('Canary');
        const fields = canaryFields({ ...request.body, name: request.body.name ?? current.name }, current, secretKey, current.id);
        await checkSpecTargets(pool, fields.spec);
        // Any edit of a canary that runs exec checks, not only of the checks: the spec is saved whole.
        if (holdsExec(current) || canarySpecRunsExec(fields.spec)) {
          requireExecute(request.principal?.roles ?? [], 'change a canary with exec checks');
        }
        await updateCanary(pool, current.id, fields);
        await applyCanary(current.id);
        const updated = await getCanary(pool, current.id);
        if (updated === null) throw errors.notFound('Canary');
        return updated;
      },
    );

    app.delete(
      '/api/canary/canaries/:id',
      { config: { permission: WRITE }, schema: { tags: ['health'], params: idParams, response: { 204: z.null(), ...errorResponses(404) } } },
      async (request, reply) => {
        const current = await getCanary(pool, request.params.id);
        if (current === null) throw errors.notFound('Canary');
        // Deleting stops an admin's probe and its history with it: only someone who could have written it may.
        if (holdsExec(current)) requireExecute(request.principal?.roles ?? [], 'delete a canary with exec checks');
        if (!(await softDeleteCanary(pool, request.params.id))) throw errors.notFound('Canary');
        await applyCanary(request.params.id);
        return reply.status(204).send(null);
      },
    );

    registerSchemaRoute(scoped, {
      file: 'canary.schema.json',
      permission: READ,
      tag: 'health',
      summary: 'The canary spec as a JSON Schema, for editors that check YAML or JSON as it is typed',
      // The same document for every caller and every request, built once.
      document: canarySpecJsonSchema(),
    });
  },
};
