import type pg from 'pg';

export interface CatalogBenchOptions {
  pool: pg.Pool;
  /** Base URL of a running server. */
  url: string;
  /** A session cookie header of a user who may read the catalog. */
  cookie: string;
  requests?: number;
  warmup?: number;
}

export interface CatalogBenchFigures {
  label: string;
  request: string;
  requests: number;
  /** Rows (or groups) in the last answer, to show the call did real work. */
  rows: number;
  p50: number;
  p95: number;
  max: number;
}

export interface CatalogBenchResult {
  items: number;
  changes: number;
  insights: number;
  figures: CatalogBenchFigures[];
}

export interface Call {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many rows the answer holds. */
  count: (body: unknown) => number;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

export function arrayLength(body: unknown): number {
  return Array.isArray(body) ? body.length : 0;
}

export function fieldLength(field: string): (body: unknown) => number {
  return (body) => (body !== null && typeof body === 'object' && field in body ? arrayLength((body as Record<string, unknown>)[field]) : 0);
}

/** One call, timed until the whole body is read; anything but a 200 stops the bench. */
export async function timeCall(target: { url: string; cookie: string }, call: Call): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const response = await fetch(`${target.url}${call.path}`, {
    method: call.method,
    headers: {
      cookie: target.cookie,
      accept: 'application/json',
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    },
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${call.method} ${call.path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { ms, rows: call.count(JSON.parse(text) as unknown) };
}

/** Sequential calls after a few unmeasured ones that warm the caches; `before` runs ahead of each, untimed. */
async function measure(options: CatalogBenchOptions, call: Call, before?: () => Promise<unknown>): Promise<CatalogBenchFigures> {
  const requests = options.requests ?? 30;
  const warmup = options.warmup ?? 3;
  const timings: number[] = [];
  let rows = 0;
  for (let i = 0; i < warmup + requests; i += 1) {
    await before?.();
    const timed = await timeCall(options, call);
    if (i < warmup) continue;
    timings.push(timed.ms);
    rows = timed.rows;
  }
  const sorted = [...timings].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    label: call.label,
    request: `${call.method} ${call.path}${call.body === undefined ? '' : ` ${JSON.stringify(call.body)}`}`,
    requests,
    rows,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/**
 * The catalog's heavy reads as the pages make them: the grouped summary with its default grouping, a flat list
 * filtered by type and label and sorted, the first page of the changes list, the ranked search, and the relationship
 * walk from an item that has both a parent and soft links.
 */
export async function benchCatalog(options: CatalogBenchOptions): Promise<CatalogBenchResult> {
  const counts = await options.pool.query<{ items: number; changes: number; insights: number }>(
    `select (select count(*)::int from config_items) as items, (select count(*)::int from config_changes) as changes,
            (select count(*)::int from config_analysis) as insights`,
  );
  const { items, changes, insights } = counts.rows[0] ?? { items: 0, changes: 0, insights: 0 };
  const figures: CatalogBenchFigures[] = [];
  const calls = await catalogCalls(options.pool);
  for (const call of calls) figures.push(await measure(options, call));
  const changesList = calls.find((call) => call.path === '/api/catalog/changes');
  if (changesList !== undefined) {
    // Its counts are kept for the pages of a request until the catalog is written, and after a write served up to 300 s
    // old while one recount runs behind them (ADR 0053); the Refresh button's no-cache request waits for the recount.
    // The write ahead of each request is untimed, so on PGlite it also waits out the previous request's recount.
    const write = () => options.pool.query(`select nextval('catalog_write_version')`);
    figures.push(await measure(options, { ...changesList, label: 'changes list, page 1, after a write (kept)' }, write));
    figures.push(
      await measure(options, { ...changesList, label: 'changes list, page 1, after a write (no-cache)', headers: { 'cache-control': 'no-cache' } }, write),
    );
  }
  return { items, changes, insights, figures };
}

/**
 * The calls themselves, built from what the database holds (a label value of its pods, an item with a parent and soft
 * links), so that two databases of different sizes are asked the same questions.
 */
export async function catalogCalls(pool: pg.Pool): Promise<Call[]> {
  // A Service has a namespace above it and links to its pods, which link to their nodes: a walk over both kinds of edge.
  const start = await pool.query<{ id: string }>(
    `select i.id from config_items i
      where i.type = 'Kubernetes::Service' and i.parent_id is not null and i.deleted_at is null
        and exists (select 1 from config_relationships r where r.config_id = i.id)
      order by i.created_at limit 1`,
  );
  const label = await pool.query<{ type: string; key: string; value: string }>(
    `select i.type, l.key, l.value from config_items i cross join lateral jsonb_each_text(i.labels) l
      where i.type = 'Kubernetes::Pod' and i.deleted_at is null and l.key = 'env' limit 1`,
  );
  const filter = label.rows[0] ?? { type: 'Kubernetes::Pod', key: 'env', value: 'prod' };
  // A live item's own name, taken the same way on every database (the first by id), so each finds its own few matches.
  const named = await pool.query<{ name: string }>('select name from config_items where deleted_at is null order by id limit 1');
  const flatQuery = new URLSearchParams({
    select: 'id,name,type,status,health,tags,labels,changes,analysis,cost_total_1d,cost_total_7d,cost_total_30d,created_at,updated_at,deleted_at',
    type: `eq.${filter.type}`,
    labels: `cs.${JSON.stringify({ [filter.key]: filter.value })}`,
    deleted_at: 'is.null',
    order: 'name.asc',
    limit: '50',
  });
  const calls: Call[] = [
    { label: 'grouped summary (default grouping)', method: 'POST', path: '/api/catalog/summary', body: {}, count: arrayLength },
    { label: 'flat list (type + label, sorted)', method: 'GET', path: `/api/db/configs?${flatQuery.toString()}`, count: arrayLength },
    { label: 'changes list, page 1 of 200', method: 'POST', path: '/api/catalog/changes', body: { page: 1, page_size: 200 }, count: fieldLength('changes') },
  ];
  // The search as the flat table sends it: ranked, deleted items hidden, one page. A name matches few items; a label
  // value shared by a third of the estate makes the database rank tens of thousands of matches for one page.
  for (const [label, search] of [
    ['search by an item\'s name (ranked)', named.rows[0]?.name ?? 'item-4242'],
    ['search, a third of items match (ranked)', 'prod'],
  ] as const) {
    const searchQuery = new URLSearchParams({
      search,
      select: flatQuery.get('select') ?? 'id,name',
      deleted_at: 'is.null',
      order: 'rank.desc,name.asc,id.asc',
      limit: '200',
    });
    calls.push({ label, method: 'GET', path: `/api/db/rpc/search_configs?${searchQuery.toString()}`, count: arrayLength });
  }
  const startId = start.rows[0]?.id;
  if (startId !== undefined) {
    calls.push({
      label: 'related_configs_recursive',
      method: 'GET',
      path: `/api/db/rpc/related_configs_recursive?${new URLSearchParams({ config_id: startId, type_filter: 'all' }).toString()}`,
      count: arrayLength,
    });
  }
  return calls;
}
