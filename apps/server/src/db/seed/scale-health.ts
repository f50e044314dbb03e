import type pg from 'pg';

export interface ScaleHealthOptions {
  checks?: number;
  statuses?: number;
  /** Minutes between two generated runs of one check. */
  stepMinutes?: number;
  onProgress?: (message: string) => void;
}

export interface ScaleHealthResult {
  canaries: number;
  checks: number;
  statuses: number;
  hourlyBuckets: number;
  dailyBuckets: number;
  seconds: number;
}

const CHECKS_PER_CANARY = 100;
/** Status rows per statement: big enough to amortise the rollup trigger, small enough for PGlite's memory. */
const ROWS_PER_BATCH = 500_000;

/**
 * N checks in N/100 canaries and M status rows, all generated in SQL. Each canary's spec lists its checks exactly,
 * so the canary sync finds nothing to change; the checks have no next_runtime, so no worker ever runs them and the
 * benchmark measures the summary alone. Status rows go in batches of whole checks, and the statement-level rollup
 * trigger folds each batch into the hourly and daily buckets.
 */
export async function seedScaleHealth(pool: pg.Pool, options: ScaleHealthOptions = {}): Promise<ScaleHealthResult> {
  const checkCount = options.checks ?? 10_000;
  const statusCount = options.statuses ?? 10_000_000;
  const stepMinutes = options.stepMinutes ?? 5;
  const progress = options.onProgress ?? (() => undefined);
  const started = Date.now();
  const canaryCount = Math.ceil(checkCount / CHECKS_PER_CANARY);
  const run = `${Date.now().toString(36)}`;

  const canaries = await pool.query<{ id: string }>(
    `insert into canaries (name, namespace, labels, schedule, spec, source)
     select 'scale-' || $1 || '-' || lpad(c::text, 4, '0'), 'ns-' || (c % 5), '{}'::jsonb, '@every 5m',
            jsonb_build_object('schedule', '@every 5m', 'tcp', (
              select jsonb_agg(jsonb_build_object(
                       'name', 'svc-' || (c * ${CHECKS_PER_CANARY} + i) || '/tcp',
                       'endpoint', '10.' || (i % 250) || '.' || (c % 250) || '.1:443',
                       'labels', jsonb_build_object('team', 'team-' || (i % 20), 'env', (array['prod', 'staging', 'dev'])[1 + i % 3]))
                     order by i)
                from generate_series(0, least(${CHECKS_PER_CANARY}, $3 - c * ${CHECKS_PER_CANARY}) - 1) i)),
            'seed:scale'
       from generate_series(0, $2 - 1) c
     returning id`,
    [run, canaryCount, checkCount],
  );
  const canaryIds = canaries.rows.map((row) => row.id);
  await pool.query(
    `insert into checks (canary_id, type, name, namespace, endpoint, labels, spec, status, last_runtime, next_runtime)
     select c.id, 'tcp', e ->> 'name', c.namespace, e ->> 'endpoint', e -> 'labels', e,
            case when hashtext(e ->> 'name') % 10 = 0 then 'unhealthy' else 'healthy' end, now(), null
       from canaries c cross join lateral jsonb_array_elements(c.spec -> 'tcp') e
      where c.id = any($1)`,
    [canaryIds],
  );
  progress(`${canaryCount} canaries and ${checkCount} checks`);

  const perCheck = Math.max(1, Math.floor(statusCount / checkCount));
  const checksPerBatch = Math.max(1, Math.floor(ROWS_PER_BATCH / perCheck));
  const ids = await pool.query<{ id: string }>('select id from checks where canary_id = any($1) order by id', [canaryIds]);
  const checkIds = ids.rows.map((row) => row.id);
  let inserted = 0;
  for (let offset = 0; offset < checkIds.length; offset += checksPerBatch) {
    const batch = checkIds.slice(offset, offset + checksPerBatch);
    const result = await pool.query(
      `insert into check_statuses (check_id, time, status, duration, message)
       select k.id, date_trunc('minute', now()) - make_interval(mins => g * $3), (hashtext(k.id::text) % 10 <> 0) or (g % 7 = 0),
              (20 + (g * 37 + abs(hashtext(k.id::text))) % 480)::integer, 'ok'
         from unnest($1::uuid[]) k(id) cross join generate_series(1, $2) g`,
      [batch, perCheck, stepMinutes],
    );
    inserted += result.rowCount ?? 0;
    progress(`${inserted.toLocaleString('en')} / ${(perCheck * checkIds.length).toLocaleString('en')} status rows`);
  }
  const buckets = await pool.query<{ hourly: number; daily: number }>(
    `select (select count(*) from check_statuses_1h r where r.check_id = any($1))::integer as hourly,
            (select count(*) from check_statuses_1d r where r.check_id = any($1))::integer as daily`,
    [checkIds],
  );
  await pool.query('analyze checks');
  await pool.query('analyze check_statuses_1h');
  await pool.query('analyze check_statuses_1d');
  return {
    canaries: canaryCount,
    checks: checkIds.length,
    statuses: inserted,
    hourlyBuckets: buckets.rows[0]?.hourly ?? 0,
    dailyBuckets: buckets.rows[0]?.daily ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
