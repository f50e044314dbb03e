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

/** A query the bench runs both ways: a data-API path and the SQL that answers the same through pg. */
interface Shape {
  label: string;
  apiPath: string;
  /** Sent with the API call, as the page sends them (a `Prefer: count=exact` asks for the total too). */
  headers: Record<string, string>;
  /** Run one after another for one direct answer (a page and, when the API counts, its count). */
  statements: Array<{ sql: string; values: unknown[] }>;
}

const SYNTHETIC: Shape = {
  label: `bench_items: a page of ${PAGE}, filtered (score >= 500), ordered, offset 100, one embedded resource`,
  apiPath: `/api/db/bench_items?select=id,name,score,bench_groups(name)&score=gte.500&order=id.asc&limit=${PAGE}&offset=100`,
  headers: {},
  statements: [
    {
      sql: `select i.id, i.name, i.score, json_build_object('name', g.name) as bench_groups
              from bench_items i left join bench_groups g on g.id = i.group_id
             where i.score >= $1
             order by i.id asc limit ${PAGE} offset 100`,
      values: [500],
    },
  ],
};

/** The catalog's flat table as the page asks for it (get-configs.ts): one type and one label, sorted, counted, its agent embedded. */
const CATALOG_COLUMNS =
  'id,name,type,config_class,status,health,labels,tags,created_at,updated_at,deleted_at,last_scraped_time,cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis';

async function catalogShape(pool: pg.Pool): Promise<Shape | null> {
  const found = await pool.query<{ type: string; key: string; value: string }>(
    `select i.type, l.key, l.value from config_items i cross join lateral jsonb_each_text(i.labels) l
      where i.type = 'Kubernetes::Pod' and i.deleted_at is null and l.key = 'env' limit 1`,
  );
  const filter = found.rows[0];
  if (filter === undefined) return null;
  const labels = JSON.stringify({ [filter.key]: filter.value });
  const query = new URLSearchParams({
    select: `${CATALOG_COLUMNS},agent:agent_id(id,name)`,
    type: `eq.${filter.type}`,
    labels: `cs.${labels}`,
    deleted_at: 'is.null',
    order: 'name.asc',
    limit: String(PAGE),
  });
  const where = 'c.type = $1 and c.labels @> $2::jsonb and c.deleted_at is null';
  return {
    label: `configs: a page of ${PAGE} of one type and label, sorted, counted exactly, its agent embedded`,
    apiPath: `/api/db/configs?${query.toString()}`,
    headers: { prefer: 'count=exact' },
    statements: [
      {
        sql: `select ${CATALOG_COLUMNS.split(',').map((column) => `c.${column}`).join(', ')},
                     case when a.id is null then null else json_build_object('id', a.id, 'name', a.name) end as agent
                from configs c left join agents a on a.id = c.agent_id
               where ${where}
               order by c.name asc limit ${PAGE}`,
        values: [filter.type, labels],
      },
      { sql: `select count(*) from configs c where ${where}`, values: [filter.type, labels] },
    ],
  };
}

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

async function measureApi(url: string, cookie: string, shape: Shape): Promise<Figures> {
  const result = await autocannon({ url: `${url}${shape.apiPath}`, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie, ...shape.headers } });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.non2xx + result.errors };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measureDirect(pool: pg.Pool, shape: Shape): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + DURATION_S * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        for (const statement of shape.statements) await pool.query(statement.sql, statement.values);
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

/**
 * Data API overhead (DESIGN §9): the same queries through /api/db and through pg, the two sides taking turns: a
 * synthetic paged list with one embed, and the catalog's flat table as its page asks for it (when the bench database
 * holds a catalog).
 */
export async function benchDataApi(pool: pg.Pool, url: string, cookie: string, refreshSchema: () => Promise<void>): Promise<void> {
  console.log(`Seeding ${ROWS.toLocaleString('en')} rows in bench_items (${GROUPS} bench_groups)…`);
  await pool.query(SETUP_SQL);
  await refreshSchema();
  const catalog = await catalogShape(pool);
  const shapes = catalog === null ? [SYNTHETIC] : [SYNTHETIC, catalog];
  console.log(`${ROUNDS} rounds per query; in each, the API and then pg run ${DURATION_S} s with ${CONNECTIONS} concurrent connections.`);
  const line = (label: string, figures: Figures): string =>
    `${label.padEnd(32)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${figures.p99Ms.toFixed(1).padStart(7)} ms   errors ${figures.errors}`;
  for (const shape of shapes) {
    const probe = await fetch(`${url}${shape.apiPath}`, { headers: { cookie, ...shape.headers } });
    if (!probe.ok) throw new Error(`the API answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
    const rows = ((await probe.json()) as unknown[]).length;
    console.log(`\n${shape.label} (${rows} rows):`);
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const api = await measureApi(url, cookie, shape);
      const direct = await measureDirect(pool, shape);
      ratios.push(direct.requestsPerSecond === 0 ? 0 : api.requestsPerSecond / direct.requestsPerSecond);
      console.log(line(`round ${round}: GET /api/db (full stack)`, api));
      console.log(line(`round ${round}: same SQL through pg`, direct));
    }
    const ratio = median(ratios);
    console.log(
      `Throughput ratio (API / direct), median of ${ROUNDS} rounds: ${ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})  ` +
        `(goal ≥ ${RATIO_GOAL}: ${ratio >= RATIO_GOAL ? 'met' : 'NOT met'})`,
    );
  }
}
