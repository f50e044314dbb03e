import type pg from 'pg';

export interface SearchBenchOptions {
  pool: pg.Pool;
  /** Base URL of a running server. */
  url: string;
  /** A session cookie header (the bench's viewer, who may read every kind the search covers). */
  cookie: string;
  /** Measured calls per search text. */
  rounds?: number;
  warmup?: number;
}

export interface SearchBenchLine {
  label: string;
  text: string;
  results: number;
  p50: number;
  p95: number;
}

export interface SearchBenchResult {
  checks: number;
  /** Config items, soft-deleted ones included, as the catalog bench counts them. */
  configs: number;
  /** Every measured call of every text together. */
  overall: { calls: number; p50: number; p95: number; max: number };
  lines: SearchBenchLine[];
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/**
 * GET /api/search as the command palette calls it (issue #19 item 3, goal p95 < 100 ms at 10,000 checks and 100,000
 * config items): texts that hit each ranking tier and the expensive shapes, a prefix thousands of names share, a
 * single character, a piece inside names and a text nothing matches. Names are taken from the data so the figures
 * hold whatever the seed called things.
 */
export async function benchSearch(options: SearchBenchOptions): Promise<SearchBenchResult> {
  const counts = await options.pool.query<{ checks: number; configs: number; config: string | null; check: string | null }>(
    `select (select count(*)::int from checks where deleted_at is null) as checks,
            (select count(*)::int from config_items) as configs,
            (select name from config_items where deleted_at is null order by id limit 1) as config,
            (select name from checks where deleted_at is null order by id limit 1) as check`,
  );
  const { checks, configs, config, check } = counts.rows[0] ?? { checks: 0, configs: 0, config: null, check: null };
  const texts: Array<[string, string]> = [
    ['exact config item name', config ?? 'pod-000042'],
    ['exact check name', check ?? 'svc-42/tcp'],
    ['prefix of 60% of the items', 'pod'],
    ['prefix, a few hundred', 'deployment-0001'],
    ['inside names (tiers 2 and 1)', '00042'],
    ['a word inside check names', 'tcp'],
    ['one character', 'e'],
    ['nothing matches', 'zzz-nothing'],
  ];
  const rounds = options.rounds ?? 25;
  const warmup = options.warmup ?? 3;
  const all: number[] = [];
  const lines: SearchBenchLine[] = [];
  for (const [label, text] of texts) {
    const timings: number[] = [];
    let results = 0;
    for (let i = 0; i < warmup + rounds; i += 1) {
      const started = performance.now();
      const response = await fetch(`${options.url}/api/search?${new URLSearchParams({ q: text, limit: '20' }).toString()}`, {
        headers: { cookie: options.cookie, accept: 'application/json' },
      });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`GET /api/search?q=${text} answered ${response.status}: ${body.slice(0, 300)}`);
      if (i < warmup) continue;
      timings.push(elapsed);
      results = (JSON.parse(body) as { items: unknown[] }).items.length;
    }
    const sorted = [...timings].sort((a, b) => a - b);
    all.push(...timings);
    lines.push({ label, text, results, p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)) });
  }
  const sorted = [...all].sort((a, b) => a - b);
  return {
    checks,
    configs,
    overall: { calls: sorted.length, p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), max: round(sorted.at(-1) ?? 0) },
    lines,
  };
}
