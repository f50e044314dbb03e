import autocannon from 'autocannon';
import type pg from 'pg';
import { median } from './median';

const ROWS = 100_000;
const GROUPS = 100;
/** Each side runs this long per round, the sides taking turns (API, pg, API, pg…) so load on the machine hits both. */
const DURATION_S = 5;
const ROUNDS = 3;
/** Issue #33: the data API answers at least 0.7× what the same SQL through pg does. */
const RATIO_GOAL = 0.7;
const CONNECTIONS = 4;
const PAGE = 50;

/** The bench tables live outside the migrations: they exist only in the throwaway bench database. */
const SETUP_SQL = `
  drop table if exists bench_items;
  drop table if exists bench_groups;
  create table bench_groups (id int primary key, name text not null);
  create table bench_items (
    id int primary key,
    group_id int not null references bench_groups (id),
    name text not null,
    score int not null,
    created_at timestamptz not null default now()
  );
  insert into bench_groups select g, 'group ' || g from generate_series(1, ${GROUPS}) g;
  insert into bench_items select i, 1 + i % ${GROUPS}, 'item ' || i, i % 1000, now() - make_interval(secs => i) from generate_series(1, ${ROWS}) i;
  create index bench_items_score_idx on bench_items (score, id);
  analyze bench_groups;
  analyze bench_items;
`;

const API_PATH = `/api/db/bench_items?select=id,name,score,bench_groups(name)&score=gte.500&order=id.asc&limit=${PAGE}&offset=100`;
const DIRECT_SQL = `
  select i.id, i.name, i.score, json_build_object('name', g.name) as bench_groups
    from bench_items i left join bench_groups g on g.id = i.group_id
   where i.score >= $1
   order by i.id asc limit ${PAGE} offset 100`;

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

async function measureApi(url: string, cookie: string): Promise<Figures> {
  const result = await autocannon({ url: `${url}${API_PATH}`, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie } });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.non2xx + result.errors };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measureDirect(pool: pg.Pool): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + DURATION_S * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        await pool.query(DIRECT_SQL, [500]);
        latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: latencies.length / elapsed, p99Ms: percentile(latencies, 99), errors };
}

/** Data API overhead (DESIGN §9): the same paged, filtered list with one embed, through /api/db and through pg. */
export async function benchDataApi(pool: pg.Pool, url: string, cookie: string, refreshSchema: () => Promise<void>): Promise<void> {
  console.log(`Seeding ${ROWS.toLocaleString('en')} rows in bench_items (${GROUPS} bench_groups)…`);
  await pool.query(SETUP_SQL);
  await refreshSchema();
  const probe = await fetch(`${url}${API_PATH}`, { headers: { cookie } });
  if (probe.status !== 200) throw new Error(`the API answered ${probe.status}: ${await probe.text()}`);
  const rows = ((await probe.json()) as unknown[]).length;
  console.log(`Query: a page of ${rows} rows, filtered (score >= 500), ordered, with one embedded resource.`);
  console.log(`${ROUNDS} rounds; in each, the API and then pg run ${DURATION_S} s with ${CONNECTIONS} concurrent connections.\n`);
  const line = (label: string, figures: Figures): string =>
    `${label.padEnd(32)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${figures.p99Ms.toFixed(1).padStart(7)} ms   errors ${figures.errors}`;
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const api = await measureApi(url, cookie);
    const direct = await measureDirect(pool);
    ratios.push(direct.requestsPerSecond === 0 ? 0 : api.requestsPerSecond / direct.requestsPerSecond);
    console.log(line(`round ${round}: GET /api/db (full stack)`, api));
    console.log(line(`round ${round}: same SQL through pg`, direct));
  }
  const ratio = median(ratios);
  console.log(
    `\nThroughput ratio (API / direct), median of ${ROUNDS} rounds: ${ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})  ` +
      `(goal ≥ ${RATIO_GOAL}: ${ratio >= RATIO_GOAL ? 'met' : 'NOT met'})`,
  );
}
