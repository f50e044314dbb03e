import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { canaryPageSchema, canaryRecordSchema, canarySpecJsonSchema, checkDetailSchema, checkRunStartedSchema, healthSummarySchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { registerSchemaRoute } from '../../platform/schema-route';
import { rowScopedTransform, writeHooksFor, type WriteTransform } from '../../data-api/write-hooks';
import {
  canaryBodySchema,
  canaryIdParamsSchema,
  canaryPageQuerySchema,
  createCanary,
  deleteCanary,
  editCanary,
  readCanary,
  type CanaryRouteDeps,
} from './canary-routes';
import { CANARY_LAYOUT, CHECK_LAYOUT, holdsSecrets, sealCanarySpec, sealCheckSpec, sealStoredSpecSecrets } from './canary-secrets';
import { canaryUpdatedAt, listCanaries } from './canary-store';
import { CanaryReconciler, syncCanaryChecks } from './canary-sync';
import { CheckScheduler } from './check-scheduler';
import {
  checkDetailQuerySchema,
  checkIdParamsSchema,
  readCheckDetail,
  runCheckNow,
  sendHealthSummary,
  summaryQuerySchema,
  type CheckRouteDeps,
} from './check-routes';
import { canaryRowsValidator, checkRowsValidator } from './exec-permission';
import { artifactInfoSchema, listArtifacts, registerArtifactDownload } from './artifact-routes';
import { canarySpecRowsValidator } from './spec-hooks';
import { checkSpecTargets } from './spec-targets';
import { checkValueReferences } from './value-references';
import { UptimeWindows, WINDOW_REFRESH_AGE_MS } from './uptime-windows';

const READ = { resource: 'canaries', action: 'read' } as const;
const WRITE = { resource: 'canaries', action: 'write' } as const;
const RECONCILE_MS = 5000;

/** The workers of a process outside the api role: the scheduler running checks, the reconciler following canary edits. */
interface CheckWorkers {
  scheduler: CheckScheduler;
  reconciler: CanaryReconciler;
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

/** Canaries and checks written through /api/db get the rules this API applies: sealed secrets, spec targets, exec. */
function registerWriteHooks(context: AppContext): void {
  const { pool } = context.db;
  const { secretKey } = context.config;
  const hooks = writeHooksFor(context.db);
  hooks.registerTransform(
    'canaries',
    rowScopedTransform(
      'spec',
      (spec) => holdsSecrets(CANARY_LAYOUT, spec),
      (id, spec) => sealCanarySpec(secretKey, id, spec).spec,
      () => errors.secretNeedsOneRow('canary'),
    ),
  );
  hooks.registerTransform('checks', sealedCheckRows(pool, secretKey));
  const checkSpecColumn =
    (asCheckRow: boolean) =>
    async (rows: ReadonlyArray<Record<string, unknown>>): Promise<void> => {
      for (const row of rows) {
        if (row.spec === undefined) continue;
        await checkSpecTargets(pool, row.spec);
        await checkValueReferences(pool, row.spec, typeof row.namespace === 'string' ? row.namespace : null, asCheckRow);
      }
    };
  hooks.registerCheck('canaries', checkSpecColumn(false));
  hooks.registerCheck('checks', checkSpecColumn(true));
  hooks.register('canaries', canaryRowsValidator);
  hooks.register('canaries', canarySpecRowsValidator);
  hooks.register('checks', checkRowsValidator);
}

function createCheckWorkers(app: FastifyInstance, context: AppContext): CheckWorkers {
  const { pool } = context.db;
  return {
    scheduler: new CheckScheduler({
      pool,
      secretKey: context.config.secretKey,
      bus: context.bus,
      leaseSeconds: context.config.leaseSeconds,
      concurrency: context.config.checkConcurrency.bounded,
      networkConcurrency: context.config.checkConcurrency.network,
      onError: (error) => app.log.error({ err: error }, 'check scheduler'),
      onRecorded: (type, run) => context.metrics.checkRuns.inc({ type, result: run.result.pass ? 'pass' : 'fail' }),
      exportMetrics: (samples) => context.metrics.checkMetrics.record(samples),
    }),
    reconciler: new CanaryReconciler(pool, (canaryId, message) => app.log.warn({ canaryId, message }, 'canary spec is not valid')),
  };
}

/** Seals secrets a stored spec still holds in plain text; a failure is logged and must not keep checks from running. */
async function sealStoredSpecs(app: FastifyInstance, context: AppContext): Promise<void> {
  await sealStoredSpecSecrets(context.db.pool, context.config.secretKey).then(
    (report) => {
      if (report.canaries + report.checks > 0) app.log.info({ canaries: report.canaries, checks: report.checks }, 'sealed plaintext secrets in stored specs');
      for (const problem of report.problems) app.log.warn(problem, 'a stored spec holds a secret that cannot be sealed; edit the canary');
    },
    (error: unknown) => app.log.error({ err: error }, 'sealing stored spec secrets'),
  );
}

/**
 * Reconciles canaries on a timer and on every canary.updated, keeps the uptime windows dashboards read fresh, and
 * starts the scheduler once the server is up; all of it stops before the server closes.
 */
function runCheckWorkers(app: FastifyInstance, context: AppContext, windows: UptimeWindows, { scheduler, reconciler }: CheckWorkers): void {
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
  const unsubscribe = [context.bus.subscribe('canary.updated', () => reconcile()), context.bus.subscribe('check.run-requested', () => scheduler.wake())];
  const startChecks = async (): Promise<void> => {
    // Before the first reconcile, so the checks it syncs get sealed specs.
    await sealStoredSpecs(app, context);
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
async function applyCanary(context: AppContext, workers: CheckWorkers | null, id: string): Promise<void> {
  const { pool } = context.db;
  await syncCanaryChecks(pool, id, { reschedule: true });
  const updatedAt = await canaryUpdatedAt(pool, id);
  if (updatedAt !== null) workers?.reconciler.markSynced(id, updatedAt);
  context.bus.publish({ name: 'canary.updated', payload: { id } });
  workers?.scheduler.wake();
}

function registerCheckRoutes(scoped: FastifyInstance, deps: CheckRouteDeps): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
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
        querystring: summaryQuerySchema,
        response: { 200: healthSummarySchema },
      },
    },
    async (request, reply) => sendHealthSummary(deps, request.query, reply),
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
        querystring: checkDetailQuerySchema,
        response: { 200: checkDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => readCheckDetail(deps, request.query, request.principal?.roles ?? []),
  );
  app.post(
    '/api/canary/run/check/:id',
    {
      // Declared as canary read; the handler then allows only the Run Now roles (commander and responder have no canary write).
      config: { permission: READ },
      schema: { tags: ['health'], params: checkIdParamsSchema, response: { 202: checkRunStartedSchema, ...errorResponses(404) } },
    },
    async (request, reply) => runCheckNow(deps, request.params.id, request.principal?.roles ?? [], reply),
  );
}

/** The files an exec check's newest run kept (`artifacts`), listed per check and downloaded one by one. */
function registerCheckArtifactRoutes(scoped: FastifyInstance, pool: pg.Pool): void {
  scoped.withTypeProvider<ZodTypeProvider>().get(
    '/api/canary/checks/:id/artifacts',
    {
      config: { permission: READ },
      schema: { tags: ['health'], summary: "The files the check's newest run kept", params: z.object({ id: z.uuid() }), response: { 200: z.array(artifactInfoSchema) } },
    },
    async (request) => listArtifacts(pool, 'check', request.params.id),
  );
  registerArtifactDownload(scoped, '/api/canary', 'check', READ, pool);
}

function registerCanaryRoutes(scoped: FastifyInstance, deps: CanaryRouteDeps): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/canary/canaries',
    { config: { permission: READ }, schema: { tags: ['health'], querystring: canaryPageQuerySchema, response: { 200: canaryPageSchema } } },
    async (request) => listCanaries(deps.pool, request.query),
  );
  app.get(
    '/api/canary/canaries/:id',
    {
      config: { permission: READ },
      schema: { tags: ['health'], params: canaryIdParamsSchema, response: { 200: canaryRecordSchema, ...errorResponses(404) } },
    },
    async (request) => readCanary(deps, request.params.id, request.principal),
  );
  app.post(
    '/api/canary/canaries',
    { config: { permission: WRITE }, schema: { tags: ['health'], body: canaryBodySchema, response: { 201: canaryRecordSchema } } },
    async (request, reply) => createCanary(deps, request.body, request.principal, reply),
  );
  app.patch(
    '/api/canary/canaries/:id',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['health'],
        params: canaryIdParamsSchema,
        body: canaryBodySchema.partial(),
        response: { 200: canaryRecordSchema, ...errorResponses(404) },
      },
    },
    async (request) => editCanary(deps, request.params.id, request.body, request.principal),
  );
  app.delete(
    '/api/canary/canaries/:id',
    {
      config: { permission: WRITE },
      schema: { tags: ['health'], params: canaryIdParamsSchema, response: { 204: z.null(), ...errorResponses(404) } },
    },
    async (request, reply) => deleteCanary(deps, request.params.id, request.principal, reply),
  );
  registerSchemaRoute(scoped, {
    file: 'canary.schema.json',
    permission: READ,
    tag: 'health',
    summary: 'The canary spec as a JSON Schema, for editors that check YAML or JSON as it is typed',
    // The same document for every caller and every request, built once.
    document: canarySpecJsonSchema(),
  });
}

/**
 * The canary service of spec 001 §7 'Health and checks': the health summary and check detail read from the
 * rollups, Run Now, canary CRUD that turns specs into checks; and, outside the api role, the scheduler that runs
 * them and the reconciler that follows canary edits made elsewhere.
 */
export const healthPlugin: DomainPlugin = {
  name: 'health',
  register(scoped, context) {
    const { pool } = context.db;
    registerWriteHooks(context);
    const windows = new UptimeWindows(pool, (error) => scoped.log.error({ err: error }, 'uptime window refresh'));
    const workers = context.config.role !== 'api' ? createCheckWorkers(scoped, context) : null;
    if (workers !== null) runCheckWorkers(scoped, context, windows, workers);
    registerCheckRoutes(scoped, { pool, windows, bus: context.bus });
    registerCheckArtifactRoutes(scoped, pool);
    registerCanaryRoutes(scoped, { pool, secretKey: context.config.secretKey, applyCanary: (id) => applyCanary(context, workers, id) });
  },
};
