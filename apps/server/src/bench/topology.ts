import type pg from 'pg';
import { isWholeComponent, type TopologyComponent, type TopologyComponentRow, type TopologyResponse } from '@opsdeck/shared';

export interface TopologyBenchOptions {
  pool: pg.Pool;
  /** Base URL of a running server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Session cookie header of a user who may read topologies. */
  cookie: string;
  /** Children of the root, and children of each of them: 50 × 100 makes 5,051 components with the root. */
  services?: number;
  podsPerService?: number;
  /** Leaves with a check linked. */
  checks?: number;
  requests?: number;
  warmup?: number;
}

export interface TopologyRequestFigures {
  label: string;
  requests: number;
  components: number;
  bytes: number;
  p50: number;
  p95: number;
  max: number;
}

export interface TopologyFlipFigures {
  /** The UPDATE of the check plus a read of the root's summary, in ms. */
  ms: number;
  /** Whether the root's summary counted the flip when read. */
  reflected: boolean;
}

export interface TopologyBenchResult {
  components: number;
  checks: number;
  seedMs: number;
  requests: TopologyRequestFigures[];
  toUnhealthy: TopologyFlipFigures;
  backToHealthy: TopologyFlipFigures;
}

const BENCH_NAME = 'bench-topology';

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

function countComponents(components: ReadonlyArray<TopologyComponent | TopologyComponentRow> | undefined): number {
  return (components ?? []).reduce((sum, component) => sum + 1 + (isWholeComponent(component) ? countComponents(component.components) : 0), 0);
}

async function removeBenchTopology(pool: pg.Pool): Promise<void> {
  await pool.query('delete from topologies where name = $1', [BENCH_NAME]);
  await pool.query('delete from canaries where name = $1', [BENCH_NAME]);
}

/**
 * One topology, root → services → pods, labels and types on the services, a team on some, checks linked to `checks`
 * pods of which one in ten is unhealthy. Each statement writes a whole level, so the rollup triggers (statement-level)
 * run once per level rather than once per component.
 */
async function seedBenchTopology(pool: pg.Pool, services: number, pods: number, checks: number): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const topology = (await client.query<{ id: string }>(`insert into topologies (name, namespace) values ($1, 'bench') returning id`, [BENCH_NAME])).rows[0]?.id;
    if (topology === undefined) throw new Error('bench topology insert returned no id');
    const root = (
      await client.query<{ id: string }>(`insert into components (topology_id, name, type, icon) values ($1, $2, 'system', 'server') returning id`, [
        topology,
        BENCH_NAME,
      ])
    ).rows[0]?.id;
    if (root === undefined) throw new Error('bench root insert returned no id');
    await client.query(
      `insert into components (topology_id, parent_id, name, type, icon, labels, properties, cost_per_minute)
       select $1, $2, 'service-' || lpad(g::text, 3, '0'), (array['service', 'database', 'queue'])[1 + g % 3], 'kubernetes',
              jsonb_build_object('team', (array['payments', 'storefront', 'platform'])[1 + g % 3], 'tier', case when g % 2 = 0 then 'web' else 'data' end),
              jsonb_build_array(jsonb_build_object('name', 'replicas', 'value', 1 + g % 5, 'headline', true)), 0.0125 * g
         from generate_series(1, $3::int) g`,
      [topology, root, services],
    );
    await client.query(
      `insert into components (topology_id, parent_id, name, type, icon, labels, is_leaf, properties)
       select $1, s.id, s.name || '-pod-' || lpad(g::text, 3, '0'), 'pod', 'pod', s.labels, true,
              jsonb_build_array(jsonb_build_object('name', 'cpu', 'value', g % 900, 'unit', 'millicores'),
                                jsonb_build_object('name', 'memory', 'value', 1048576 * (g % 64), 'unit', 'bytes'))
         from components s, generate_series(1, $3::int) g
        where s.parent_id = $2`,
      [topology, root, pods],
    );
    const team = (await client.query<{ id: string }>(`select id from teams where deleted_at is null order by name limit 1`)).rows[0]?.id;
    if (team !== undefined) {
      await client.query(`insert into team_components (team_id, component_id) select $1, id from components where parent_id = $2 and name like '%0'`, [team, root]);
    }
    const canary = (await client.query<{ id: string }>(`insert into canaries (name, namespace) values ($1, 'bench') returning id`, [BENCH_NAME])).rows[0]?.id;
    await client.query(
      `with made as (
         insert into checks (canary_id, type, name, icon, status)
         select $1, 'http', 'bench-check-' || lpad(g::text, 4, '0'), 'http', case when g % 10 = 0 then 'unhealthy' else 'healthy' end
           from generate_series(1, $3::int) g
         returning id, name
       ), numbered_checks as (
         select id, row_number() over (order by name) as n from made
       ), numbered_pods as (
         select c.id, row_number() over (order by c.name) as n from components c where c.topology_id = $2 and c.is_leaf
       )
       insert into check_component_relationships (component_id, check_id, canary_id)
       select p.id, k.id, $1 from numbered_checks k join numbered_pods p on p.n = k.n`,
      [canary, topology, checks],
    );
    await client.query('commit');
    await client.query('analyze components; analyze check_component_relationships; analyze team_components');
    return root;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function measure(options: TopologyBenchOptions, label: string, path: string): Promise<TopologyRequestFigures> {
  const requests = options.requests ?? 50;
  const warmup = options.warmup ?? 3;
  const timings: number[] = [];
  let components = 0;
  let bytes = 0;
  for (let i = 0; i < warmup + requests; i += 1) {
    const started = performance.now();
    const response = await fetch(`${options.url}${path}`, { headers: { cookie: options.cookie, accept: 'application/json' } });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 500)}`);
    if (i < warmup) continue;
    timings.push(elapsed);
    bytes = Buffer.byteLength(text);
    components = countComponents((JSON.parse(text) as TopologyResponse).components);
  }
  const sorted = [...timings].sort((a, b) => a - b);
  return { label, requests, components, bytes, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) ?? 0 };
}

async function unhealthyAtRoot(pool: pg.Pool, root: string): Promise<number> {
  const row = await pool.query<{ n: number | null }>(`select (summary -> 'checks' ->> 'unhealthy')::int as n from components where id = $1`, [root]);
  return row.rows[0]?.n ?? 0;
}

/** Flips a pod's check and reads the root's summary right after, as the page's next poll would. */
async function flip(pool: pg.Pool, root: string, check: string, status: 'healthy' | 'unhealthy'): Promise<TopologyFlipFigures> {
  const before = await unhealthyAtRoot(pool, root);
  const started = performance.now();
  await pool.query('update checks set status = $2 where id = $1', [check, status]);
  const after = await unhealthyAtRoot(pool, root);
  const ms = performance.now() - started;
  return { ms, reflected: after === before + (status === 'unhealthy' ? 1 : -1) };
}

/**
 * Issue #13's targets on a topology of 5,000 components: `GET /api/topology?id=<root>` (the root, its children as
 * cards and theirs as rows) and the roots page, one request at a time, p95 < 200 ms; and a check flip on a pod reaching
 * the root's summary in < 1 s. The bench topology and its checks are removed afterwards, so the health benches keep
 * their counts.
 */
export async function benchTopology(options: TopologyBenchOptions): Promise<TopologyBenchResult> {
  const { pool } = options;
  const services = options.services ?? 50;
  const pods = options.podsPerService ?? 100;
  const checks = options.checks ?? 1000;
  await removeBenchTopology(pool);
  try {
    const seedStarted = performance.now();
    const root = await seedBenchTopology(pool, services, pods, checks);
    const seedMs = performance.now() - seedStarted;
    const requests = [
      await measure(options, 'GET /api/topology?id=<root>', `/api/topology?id=${root}`),
      await measure(options, 'GET /api/topology (roots)', '/api/topology'),
      await measure(options, 'GET /api/topology?id=<root>&type=queue', `/api/topology?id=${root}&type=queue`),
    ];
    const healthyCheck = (
      await pool.query<{ id: string }>(
        `select k.id from checks k join check_component_relationships l on l.check_id = k.id
          where k.status = 'healthy' and l.component_id in (select id from components where path like $1)
          order by k.name limit 1`,
        [`${root}.%`],
      )
    ).rows[0]?.id;
    if (healthyCheck === undefined) throw new Error('the bench topology has no healthy check to flip');
    const toUnhealthy = await flip(pool, root, healthyCheck, 'unhealthy');
    const backToHealthy = await flip(pool, root, healthyCheck, 'healthy');
    return { components: 1 + services + services * pods, checks, seedMs, requests, toUnhealthy, backToHealthy };
  } finally {
    await removeBenchTopology(pool);
  }
}
