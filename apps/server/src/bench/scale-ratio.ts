import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { createApp } from '../app';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { loadConfig } from '../platform/config';
import { seedScaleCatalog } from '../seed/scale-catalog';
import { seedScaleHealth } from '../seed/scale-health';
import { benchSession } from './bench-database';
import { catalogCalls, fieldLength, timeCall, type Call } from './catalog';
import { median } from './median';

/** The small side: what `npm run seed:scale` makes, at a hundredth of its size for the catalog and a tenth for checks. */
const SMALL_ITEMS = 1_000;
const SMALL_CHECKS = 1_000;
const SMALL_STATUSES = 100_000;
const ROUNDS = 21;
const WARMUP = 3;
/** Issue #33: every list and search the UI sends answers in p95 < 300 ms at scale, within 2x of its cost at 1k. */
export const RATIO_GOAL = 2;
export const P95_GOAL_MS = 300;

export interface Target {
  url: string;
  cookie: string;
  pool: pg.Pool;
}

export interface RatioLine {
  label: string;
  small: { p50: number; p95: number; rows: number };
  large: { p50: number; p95: number; rows: number };
  /** Median of the large side over the median of the small side. */
  ratio: number;
}

export interface RatioResult {
  smallItems: number;
  smallChecks: number;
  lines: RatioLine[];
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/**
 * The health dashboard's first page, the grouped table as it first asks (every group closed: the groups and counts,
 * no checks) and with one group open (its canary's 100 checks), the pivot's every check, and the palette's search, as
 * the UI asks. The open group is each database's own first canary, so both open a group of the same size.
 */
async function healthAndSearchCalls(pool: pg.Pool): Promise<Call[]> {
  const canary = await pool.query<{ name: string }>(`select name from canaries where source = 'seed:scale' and deleted_at is null order by name limit 1`);
  const summary = (search: Record<string, string>) => `/api/canary/api/summary?${new URLSearchParams({ timeRange: '1d', tabBy: 'namespace', ...search }).toString()}`;
  const grouped = (open: string[]) => summary({ groupBy: 'canary_name', groups: JSON.stringify(open) });
  return [
    { label: 'health, first page of 50 checks', method: 'GET', path: summary({ pageIndex: '0', pageSize: '50' }), count: fieldLength('checks_summary') },
    { label: 'health, grouped, every group closed', method: 'GET', path: grouped([]), count: fieldLength('groups') },
    { label: 'health, grouped, one group open', method: 'GET', path: grouped([canary.rows[0]?.name ?? '']), count: fieldLength('checks_summary') },
    { label: 'health, every check (pivot)', method: 'GET', path: summary({}), count: fieldLength('checks_summary') },
    { label: 'palette search ("pod")', method: 'GET', path: `/api/search?${new URLSearchParams({ q: 'pod', limit: '20' }).toString()}`, count: fieldLength('items') },
  ];
}

/**
 * The UI's lists and searches on two databases side by side: the bench database (100,000 items, 10,000 checks) and a
 * fresh embedded one seeded the same way at 1,000 items and 1,000 checks, served by a second API in this process. Each
 * call is asked of both in turn (small, large, small, large …), so a busy moment of this shared machine falls on both
 * sides alike, and the ratio of medians says how the cost grows with the data.
 */
export async function benchScaleRatio(large: Target): Promise<RatioResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-small-'));
  const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
  try {
    await migrate(db.pool);
    await seedScaleCatalog(db.pool, { configs: SMALL_ITEMS });
    await seedScaleHealth(db.pool, { checks: SMALL_CHECKS, statuses: SMALL_STATUSES });
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'api' }, { dataDir, port: 0, host: '127.0.0.1' });
    const running = await createApp(config, { db, logger: false });
    try {
      const small: Target = { url: await running.app.listen({ port: 0, host: '127.0.0.1' }), cookie: await benchSession(db.pool), pool: db.pool };
      const [smallCalls, largeCalls] = await Promise.all([catalogCalls(small.pool), catalogCalls(large.pool)]);
      const [smallHealth, largeHealth] = await Promise.all([healthAndSearchCalls(small.pool), healthAndSearchCalls(large.pool)]);
      const smallByLabel = new Map([...smallCalls, ...smallHealth].map((call) => [call.label, call]));
      const pairs: Array<{ small: Call; large: Call; afterWrite: boolean }> = [];
      for (const call of [...largeCalls, ...largeHealth]) {
        const other = smallByLabel.get(call.label);
        if (other === undefined) continue;
        pairs.push({ small: other, large: call, afterWrite: false });
        // Its counts are kept while the catalog is unwritten, and after a write served while one recount runs behind
        // them; the Refresh button asks with no-cache and waits for the recount. Both after a write, on both sides.
        if (call.path === '/api/catalog/changes') {
          for (const [suffix, headers] of [['kept', {}], ['no-cache', { 'cache-control': 'no-cache' }]] as const) {
            const label = `${call.label}, after a write (${suffix})`;
            pairs.push({ small: { ...other, label, headers }, large: { ...call, label, headers }, afterWrite: true });
          }
        }
      }
      const write = (target: Target) => target.pool.query(`select nextval('catalog_write_version')`);
      const lines: RatioLine[] = [];
      for (const { small: smallCall, large: largeCall, afterWrite } of pairs) {
        const times = { small: [] as number[], large: [] as number[] };
        let rows = { small: 0, large: 0 };
        for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
          if (afterWrite) await write(small);
          const a = await timeCall(small, smallCall);
          if (afterWrite) await write(large);
          const b = await timeCall(large, largeCall);
          rows = { small: a.rows, large: b.rows };
          if (round < WARMUP) continue;
          times.small.push(a.ms);
          times.large.push(b.ms);
        }
        const side = (values: number[], count: number) => {
          const sorted = [...values].sort((x, y) => x - y);
          return { p50: median(sorted), p95: percentile(sorted, 0.95), rows: count };
        };
        const smallSide = side(times.small, rows.small);
        const largeSide = side(times.large, rows.large);
        lines.push({ label: largeCall.label, small: smallSide, large: largeSide, ratio: largeSide.p50 / Math.max(smallSide.p50, 0.1) });
      }
      return { smallItems: SMALL_ITEMS, smallChecks: SMALL_CHECKS, lines };
    } finally {
      await running.close();
    }
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
