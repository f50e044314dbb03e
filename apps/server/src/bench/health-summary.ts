export interface SummaryBenchOptions {
  /** Base URL of a running server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** A session cookie header (`opsdeck_session=…`) of a user who may read canaries. */
  cookie: string;
  timeRange?: string;
  requests?: number;
  warmup?: number;
}

export interface SummaryBenchResult {
  path: string;
  requests: number;
  checks: number;
  bytes: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/**
 * Latency of GET /api/canary/api/summary as the dashboard polls it: sequential requests (one poll at a time, as the
 * UI aborts the previous one), each timed until the whole body is read. Milliseconds, rounded to 0.1.
 */
export async function benchHealthSummary(options: SummaryBenchOptions): Promise<SummaryBenchResult> {
  const path = `/api/canary/api/summary?timeRange=${encodeURIComponent(options.timeRange ?? '1d')}`;
  const requests = options.requests ?? 50;
  const warmup = options.warmup ?? 3;
  const timings: number[] = [];
  let checks = 0;
  let bytes = 0;
  for (let i = 0; i < warmup + requests; i += 1) {
    const started = performance.now();
    const response = await fetch(`${options.url}${path}`, { headers: { cookie: options.cookie, accept: 'application/json' } });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 500)}`);
    if (i < warmup) continue;
    timings.push(elapsed);
    bytes = text.length;
    checks = (JSON.parse(text) as { checks_summary: unknown[] }).checks_summary.length;
  }
  const sorted = [...timings].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    path,
    requests,
    checks,
    bytes,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((sum, n) => sum + n, 0) / Math.max(1, sorted.length)),
  };
}
