import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { runScrape, type ScrapeRunOutcome } from '../modules/scrapers';

export interface ScrapersBenchOptions {
  pool: pg.Pool;
  secretKey: Buffer;
  items?: number;
  files?: number;
}

export interface ScrapeFigure {
  ms: number;
  outcome: ScrapeRunOutcome;
}

export interface ScrapersBenchResult {
  items: number;
  files: number;
  full: ScrapeFigure;
  unchanged: ScrapeFigure;
}

const BENCH_SCRAPER = 'bench-files';

/** A service description of a realistic size: nested settings, a few lists, labels. */
function benchItem(index: number): Record<string, unknown> {
  const team = ['payments', 'storefront', 'platform', 'search', 'data'][index % 5] ?? 'platform';
  return {
    id: `svc-${index}`,
    name: `service-${String(index).padStart(6, '0')}`,
    kind: ['Service', 'Worker', 'Job'][index % 3],
    team,
    environment: index % 4 === 0 ? 'staging' : 'production',
    image: `registry.example.com/${team}/service-${index % 997}:1.${index % 40}.${index % 7}`,
    replicas: 1 + (index % 6),
    resources: { cpu: `${100 + (index % 8) * 50}m`, memory: `${128 * (1 + (index % 8))}Mi` },
    ports: [{ name: 'http', port: 8080 }, { name: 'metrics', port: 9090 }],
    env: { LOG_LEVEL: index % 10 === 0 ? 'debug' : 'info', REGION: index % 2 === 0 ? 'eu-west-1' : 'us-east-1' },
    labels: { app: `service-${index}`, tier: index % 3 === 0 ? 'backend' : 'frontend' },
  };
}

function writeFiles(folder: string, items: number, files: number): void {
  const perFile = Math.ceil(items / files);
  for (let file = 0; file < files; file += 1) {
    const first = file * perFile;
    const count = Math.max(0, Math.min(perFile, items - first));
    const list = Array.from({ length: count }, (_value, offset) => benchItem(first + offset));
    writeFileSync(path.join(folder, `services-${String(file).padStart(4, '0')}.json`), JSON.stringify({ items: list }));
  }
}

async function timed(pool: pg.Pool, secretKey: Buffer, root: string, scraper: { id: string; name: string; spec: unknown }): Promise<ScrapeFigure> {
  const started = performance.now();
  const outcome = await runScrape({ pool, secretKey, roots: [root], ownDatabaseUrl: null }, { ...scraper, agent_id: null });
  return { ms: performance.now() - started, outcome };
}

/**
 * Issue #12's scrape targets: a file scraper over 100,000 items in 1,000 JSON files, scraped once into an empty
 * scraper and then again with nothing changed, each through runScrape as the scheduler runs it. The files live in a
 * temporary scrape root, and the scraper with its items is removed afterwards so the catalog benches keep their data.
 */
export async function benchScrapers(options: ScrapersBenchOptions): Promise<ScrapersBenchResult> {
  const items = options.items ?? 100_000;
  const files = options.files ?? 1_000;
  const { pool, secretKey } = options;
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-scrape-')));
  const folder = path.join(root, 'services');
  mkdirSync(folder);
  await removeBenchScraper(pool);
  try {
    writeFiles(folder, items, files);
    const spec = {
      file: [
        { class: 'Bench', type: '$.kind', id: '$.id', name: '$.name', items: '$.items', format: 'json', icon: 'file', paths: [path.join(folder, '*.json')] },
      ],
      timeout: '30m',
    };
    const inserted = await pool.query<{ id: string }>(`insert into config_scrapers (name, namespace, spec) values ($1, 'bench', $2) returning id`, [
      BENCH_SCRAPER,
      JSON.stringify(spec),
    ]);
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('bench scraper insert returned no id');
    const scraper = { id, name: BENCH_SCRAPER, spec };
    const full = await timed(pool, secretKey, root, scraper);
    const unchanged = await timed(pool, secretKey, root, scraper);
    return { items, files, full, unchanged };
  } finally {
    await removeBenchScraper(pool);
    rmSync(root, { recursive: true, force: true });
  }
}

async function removeBenchScraper(pool: pg.Pool): Promise<void> {
  const found = await pool.query<{ id: string }>('select id from config_scrapers where name = $1', [BENCH_SCRAPER]);
  for (const { id } of found.rows) {
    await pool.query('delete from config_items where scraper_id = $1', [id]);
    await pool.query('delete from job_history where resource_id = $1', [id]);
    await pool.query('delete from config_scrapers where id = $1', [id]);
  }
}
