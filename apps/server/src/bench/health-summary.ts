export interface SummaryBenchOptions {
  /** Base URL of a running server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** A session cookie header (`opsdeck_session=…`) of a user who may read canaries. */
  cookie: string;
  timeRange?: string;
  /** First page size of the dashboard's table (DEFAULT_PAGE_SIZE of @opsdeck/shared). */
  pageSize?: number;
  requests?: number;
  warmup?: number;
}

export interface SummaryBenchFigures {
  path: string;
  requests: number;
  checks: number;
  totalEntries: number;
  bytes: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface SummaryBenchResult {
  /** The dashboard's first request: the first page of the flat table, with counts, tabs and label values. */
  paged: SummaryBenchFigures;
  /** Every check at once, as the grouped cards ask for them (the grouped table asks for its open groups' alone). */
  unpaged: SummaryBenchFigures;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/**
 * Sequential requests (one poll at a time, as the UI aborts the previous one), each timed until the whole body is
 * read. Milliseconds, rounded to 0.1.
 */
async function measure(options: SummaryBenchOptions, search: URLSearchParams): Promise<SummaryBenchFigures> {
  const path = `/api/canary/api/summary?${search.toString()}`;
  const requests = options.requests ?? 50;
  const warmup = options.warmup ?? 3;
  const timings: number[] = [];
  let checks = 0;
  let totalEntries = 0;
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
    const body = JSON.parse(text) as { checks_summary: unknown[]; totalEntries: number };
    checks = body.checks_summary.length;
    totalEntries = body.totalEntries;
  }
  const sorted = [...timings].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    path,
    requests,
    checks,
    totalEntries,
    bytes,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((sum, n) => sum + n, 0) / Math.max(1, sorted.length)),
  };
}

/**
 * Latency of GET /api/canary/api/summary as the health dashboard requests it (apps/web/src/features/health/api/
 * get-health-summary.ts): its first call with the default parameters (time range, Tab By namespace, first page), and
 * the unpaged call of the grouped cards.
 */
export async function benchHealthSummary(options: SummaryBenchOptions): Promise<SummaryBenchResult> {
  const timeRange = options.timeRange ?? '1d';
  const paged = new URLSearchParams({ timeRange, tabBy: 'namespace', pageIndex: '0', pageSize: String(options.pageSize ?? 50) });
  const unpaged = new URLSearchParams({ timeRange, tabBy: 'namespace', groupBy: 'canary_name' });
  return { paged: await measure(options, paged), unpaged: await measure(options, unpaged) };
}
