import type pg from 'pg';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, INCIDENT_TYPES } from '@opsdeck/shared';

export interface IncidentListBenchOptions {
  pool: pg.Pool;
  /** Base URL of a running server, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Session cookie header of a user who may read incidents. */
  cookie: string;
  /** Incidents the database should hold before measuring (default 50,000). */
  incidents?: number;
  samples?: number;
  pageSize?: number;
}

export interface IncidentListBenchResult {
  incidents: number;
  seededNow: number;
  seedMs: number;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  requestsPerSecond: number;
}

const BENCH_PREFIX = 'Bench incident';
const BATCH = 5000;

/**
 * Tops the database up to `incidents` incidents (each with a root hypothesis) spread over every status, severity, type
 * and five owners across a year. Rows carry the title prefix 'Bench incident', so a second run adds nothing.
 */
export async function seedBenchIncidents(pool: pg.Pool, target: number): Promise<{ seeded: number; ms: number }> {
  const started = performance.now();
  const present = await pool.query<{ n: number }>(`select count(*)::int as n from incidents where title like $1`, [`${BENCH_PREFIX}%`]);
  const missing = Math.max(0, target - (present.rows[0]?.n ?? 0));
  const owners = (await pool.query<{ id: string }>('select id from people where deleted_at is null order by name limit 5')).rows.map((r) => r.id);
  for (let done = 0; done < missing; done += BATCH) {
    const size = Math.min(BATCH, missing - done);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `with created as (
           insert into incidents (title, description, type, severity, status, created_by, commander_id, created_at)
           select $1 || ' ' || ($2::int + g) || ': ' || (array['disk full', 'latency', 'errors', 'packet loss', 'cert expiry'])[1 + g % 5],
                  'Generated for the benchmark',
                  ($3::text[])[1 + g % cardinality($3::text[])],
                  ($4::text[])[1 + (g / 7) % cardinality($4::text[])],
                  ($5::text[])[1 + (g / 3) % cardinality($5::text[])],
                  case when cardinality($6::uuid[]) = 0 then null else ($6::uuid[])[1 + g % cardinality($6::uuid[])] end,
                  case when cardinality($6::uuid[]) = 0 then null else ($6::uuid[])[1 + (g + 1) % cardinality($6::uuid[])] end,
                  now() - make_interval(secs => (g * 631) % 31536000)
             from generate_series(1, $7::int) g
           returning id, title, created_by)
         insert into hypotheses (incident_id, title, type, status, created_by)
         select id, title, 'root', 'possible', created_by from created`,
        [BENCH_PREFIX, done, INCIDENT_TYPES, INCIDENT_SEVERITIES, INCIDENT_STATUSES, owners, size],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  if (missing > 0) await pool.query('analyze incidents; analyze hypotheses');
  return { seeded: missing, ms: performance.now() - started };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

interface ListQuery {
  status: string;
  severity: string;
  type: string | null;
}

function listQuery(i: number): ListQuery {
  return {
    status: INCIDENT_STATUSES[i % INCIDENT_STATUSES.length] ?? 'open',
    severity: INCIDENT_SEVERITIES[(i >> 1) % INCIDENT_SEVERITIES.length] ?? 'high',
    type: i % 2 === 1 ? (INCIDENT_TYPES[i % INCIDENT_TYPES.length] ?? 'availability') : null,
  };
}

/** The list screen's request: filtered by status and severity (and type on every other call), a page, newest first, with hypotheses. */
function listPath(query: ListQuery, offset: number, pageSize: number): string {
  const params = new URLSearchParams();
  params.set('select', 'id,incident_id,title,type,severity,status,created_at,created_by,commander_id,hypotheses(id,title,type,status)');
  params.set('status', `eq.${query.status}`);
  params.set('severity', `eq.${query.severity}`);
  if (query.type !== null) params.set('type', `eq.${query.type}`);
  params.set('order', 'created_at.desc');
  params.set('limit', String(pageSize));
  params.set('offset', String(offset));
  return `/api/db/incidents?${params.toString()}`;
}

/** Rows per (status, severity, type), so each sample asks for one of the first five pages that exist. */
async function matchCounts(pool: pg.Pool): Promise<Map<string, number>> {
  const rows = (await pool.query<{ status: string; severity: string | null; type: string; n: number }>(
    'select status, severity, type, count(*)::int as n from incidents group by status, severity, type',
  )).rows;
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const key of [`${row.status}|${row.severity ?? ''}|`, `${row.status}|${row.severity ?? ''}|${row.type}`]) counts.set(key, (counts.get(key) ?? 0) + row.n);
  }
  return counts;
}

/** Seeds if needed, then measures the filtered, paged incident list through /api/db one request at a time. */
export async function benchIncidentList(options: IncidentListBenchOptions): Promise<IncidentListBenchResult> {
  const target = options.incidents ?? 50_000;
  const samples = options.samples ?? 200;
  const pageSize = options.pageSize ?? 50;
  const seed = await seedBenchIncidents(options.pool, target);
  const total = (await options.pool.query<{ n: number }>('select count(*)::int as n from incidents')).rows[0]?.n ?? 0;
  const counts = await matchCounts(options.pool);
  const call = async (i: number): Promise<number> => {
    const query = listQuery(i);
    const matching = counts.get(`${query.status}|${query.severity}|${query.type ?? ''}`) ?? 0;
    const pages = Math.max(1, Math.min(5, Math.ceil(matching / pageSize)));
    const offset = (i % pages) * pageSize;
    const started = performance.now();
    const response = await fetch(`${options.url}${listPath(query, offset, pageSize)}`, { headers: { cookie: options.cookie, prefer: 'count=exact' } });
    await response.arrayBuffer();
    if (response.status !== 200 && response.status !== 206) throw new Error(`incident list answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 10; i += 1) await call(i);
  const timings: number[] = [];
  const started = performance.now();
  for (let i = 0; i < samples; i += 1) timings.push(await call(i));
  const elapsed = performance.now() - started;
  timings.sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    incidents: total,
    seededNow: seed.seeded,
    seedMs: Math.round(seed.ms),
    samples,
    p50Ms: round(percentile(timings, 50)),
    p95Ms: round(percentile(timings, 95)),
    p99Ms: round(percentile(timings, 99)),
    maxMs: round(timings.at(-1) ?? 0),
    requestsPerSecond: round((samples / elapsed) * 1000),
  };
}
