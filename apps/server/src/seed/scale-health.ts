import type pg from 'pg';

export interface ScaleHealthOptions {
  checks?: number;
  statuses?: number;
  /** Minutes between two generated runs of one check. */
  stepMinutes?: number;
  /** Status rows per transaction; smaller on PGlite, whose single backend holds a batch in memory. */
  rowsPerBatch?: number;
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
const ROWS_PER_BATCH = 1_000_000;
/** Slots of a rollup histogram: the bounds of check_duration_bounds() plus the open slot (migration 0005). */
const HISTOGRAM_SLOTS = 13;

const HISTOGRAM_COUNTS = `array[${Array.from({ length: HISTOGRAM_SLOTS }, (_, i) => `(count(*) filter (where width_bucket(duration, check_duration_bounds()) = ${i}))::integer`).join(', ')}]`;
const HISTOGRAM_SUMS = `array[${Array.from({ length: HISTOGRAM_SLOTS }, (_, i) => `sum(duration_histogram[${i + 1}])::integer`).join(', ')}]`;

/**
 * One batch of whole checks in one transaction: the status rows with the rollup trigger switched off for this
 * transaction only, the hourly buckets grouped from the rows just written (the CTE hands them over without a second
 * read), then the daily buckets from those hours. The checks are new, so no bucket exists yet to merge with.
 */
async function insertBatch(client: pg.PoolClient, checkIds: string[], perCheck: number, stepMinutes: number): Promise<number> {
  await client.query('begin');
  try {
    await client.query(`select set_config('opsdeck.skip_check_rollups', 'on', true), set_config('statement_timeout', '0', true)`);
    const result = await client.query<{ inserted: number }>(
      `with ins as (
         insert into check_statuses (check_id, time, status, duration, message)
         select k.id, date_trunc('minute', now()) - make_interval(mins => g * $3), (hashtext(k.id::text) % 10 <> 0) or (g % 7 = 0),
                (20 + (g * 37 + abs(hashtext(k.id::text))) % 480)::integer, 'ok'
           from unnest($1::uuid[]) k(id) cross join generate_series(1, $2) g
         returning check_id, time, status, duration
       ), hourly as (
         insert into check_statuses_1h (check_id, bucket, total, passed, failed, duration_sum, duration_min, duration_max, duration_histogram)
         select check_id, date_trunc('hour', time, 'UTC'), count(*), count(*) filter (where status), count(*) filter (where not status),
                coalesce(sum(duration), 0), min(duration), max(duration), ${HISTOGRAM_COUNTS}
           from ins
          group by 1, 2
         returning 1
       )
       select (select count(*) from ins)::integer as inserted, (select count(*) from hourly)::integer as hours`,
      [checkIds, perCheck, stepMinutes],
    );
    await client.query(
      `insert into check_statuses_1d (check_id, bucket, total, passed, failed, duration_sum, duration_min, duration_max, duration_histogram)
       select check_id, date_trunc('day', bucket, 'UTC'), sum(total), sum(passed), sum(failed), sum(duration_sum), min(duration_min),
              max(duration_max), ${HISTOGRAM_SUMS}
         from check_statuses_1h
        where check_id = any($1)
        group by 1, 2`,
      [checkIds],
    );
    await client.query('commit');
    return result.rows[0]?.inserted ?? 0;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/**
 * N checks in N/100 canaries and M status rows with their hourly and daily rollups, all generated in SQL. Each
 * canary's spec lists its checks exactly, so the canary sync finds nothing to change; the checks have no
 * next_runtime, so no worker ever runs them and the benchmark measures the summary alone.
 */
export async function seedScaleHealth(pool: pg.Pool, options: ScaleHealthOptions = {}): Promise<ScaleHealthResult> {
  const checkCount = options.checks ?? 10_000;
  const statusCount = options.statuses ?? 10_000_000;
  const stepMinutes = options.stepMinutes ?? 5;
  const rowsPerBatch = options.rowsPerBatch ?? ROWS_PER_BATCH;
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
  const checksPerBatch = Math.max(1, Math.floor(rowsPerBatch / perCheck));
  const ids = await pool.query<{ id: string }>('select id from checks where canary_id = any($1) order by id', [canaryIds]);
  const checkIds = ids.rows.map((row) => row.id);
  let inserted = 0;
  const client = await pool.connect();
  try {
    for (let offset = 0; offset < checkIds.length; offset += checksPerBatch) {
      inserted += await insertBatch(client, checkIds.slice(offset, offset + checksPerBatch), perCheck, stepMinutes);
      progress(`${inserted.toLocaleString('en')} / ${(perCheck * checkIds.length).toLocaleString('en')} status rows`);
    }
  } finally {
    client.release();
  }
  const buckets = await pool.query<{ hourly: number; daily: number }>(
    `select (select count(*) from check_statuses_1h r where r.check_id = any($1))::integer as hourly,
            (select count(*) from check_statuses_1d r where r.check_id = any($1))::integer as daily`,
    [checkIds],
  );
  for (const table of ['checks', 'check_statuses', 'check_statuses_1h', 'check_statuses_1d']) await pool.query(`analyze ${table}`);
  return {
    canaries: canaryCount,
    checks: checkIds.length,
    statuses: inserted,
    hourlyBuckets: buckets.rows[0]?.hourly ?? 0,
    dailyBuckets: buckets.rows[0]?.daily ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
