import type pg from 'pg';

export interface SummarySpeedFigures {
  label: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/**
 * The default grouped summary timed three ways (ADR 0053): cold, the write version moved and the request sent with
 * `Cache-Control: no-cache`, so the database computes every answer; after a write, the catalog write version moved before each request as a scraper's write
 * would move it, the kept answer served while one refresh runs behind it; and warm, nothing written since.
 */
export async function benchCatalogSummarySpeed(options: { pool: pg.Pool; url: string; cookie: string; requests?: number }): Promise<SummarySpeedFigures[]> {
  const requests = options.requests ?? 20;
  const call = async (fresh = false): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${options.url}/api/catalog/summary`, {
      method: 'POST',
      headers: {
        cookie: options.cookie,
        accept: 'application/json',
        'content-type': 'application/json',
        ...(fresh ? { 'cache-control': 'no-cache' } : {}),
      },
      body: '{}',
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`POST /api/catalog/summary answered ${response.status}: ${text.slice(0, 500)}`);
    return elapsed;
  };
  const figures = (label: string, timings: number[]): SummarySpeedFigures => {
    const sorted = [...timings].sort((a, b) => a - b);
    const round = (n: number): number => Math.round(n * 10) / 10;
    return { label, requests, p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), max: round(sorted.at(-1) ?? 0) };
  };

  // One unmeasured call warms the database's buffers, as in the other catalog figures.
  await call();
  const cold: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    // A write since the kept answer, so no-cache cannot be answered by it.
    await options.pool.query(`select nextval('catalog_write_version')`);
    cold.push(await call(true));
  }
  const afterWrite: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    await options.pool.query(`select nextval('catalog_write_version')`);
    afterWrite.push(await call());
  }
  // Lets the last refresh finish, so the warm figures are not queued behind it.
  await call(true);
  const warm: number[] = [];
  for (let i = 0; i < requests; i += 1) warm.push(await call());
  return [
    figures('grouped summary, cold (no-cache)', cold),
    figures('grouped summary, after a write (kept)', afterWrite),
    figures('grouped summary, warm (cached)', warm),
  ];
}
