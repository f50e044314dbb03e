import { cpSync, existsSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { serverPackageRoot } from '../platform/package-root';
import { demoScrapeDir, runScrape, type ScrapeRunOutcome } from '../modules/scrapers';

export const DEMO_SCRAPER_NAME = 'demo-manifests';
const DEMO_SCHEDULE = '@every 5m';

/**
 * The sample manifests ship in apps/server/demo-manifests, found from the package root so that the compiled server
 * (dist/main.js, inside the same package) reads the same folder as the sources do.
 */
export function demoManifestsDir(): string {
  return path.join(serverPackageRoot(import.meta.url), 'demo-manifests');
}

/**
 * Paths are relative to the scrape roots, so the spec stays right when DATA_DIR moves (the e2e run copies a seeded
 * template folder) and a root of OPSDECK_SCRAPE_ROOTS that holds a demo folder serves it too.
 */
function demoScraperSpec(): Record<string, unknown> {
  const folder = path.relative(path.join('scrape-root', 'scrape'), demoScrapeDir('scrape-root'));
  return {
    schedule: DEMO_SCHEDULE,
    file: [
      {
        class: 'Kubernetes',
        type: '$.kind',
        id: '$.metadata.uid',
        name: '$.metadata.name',
        tags: { namespace: '$.metadata.namespace' },
        format: 'yaml',
        icon: 'kubernetes',
        paths: [path.posix.join(folder, 'kubernetes', '*.yaml')],
      },
      {
        class: 'Application',
        type: '$.kind',
        id: '$.service',
        name: '$.service',
        tags: { environment: '$.environment' },
        format: 'json',
        icon: 'application',
        paths: [path.posix.join(folder, 'apps', '*.json')],
      },
      { type: '$.type', id: '$.id', name: '$.name', format: 'yaml', icon: 'server', paths: [path.posix.join(folder, 'infra', '*.yaml')] },
    ],
  };
}

export interface ScrapersDemoOptions {
  dataDir: string;
  secretKey: Buffer;
  createdBy: string | null;
}

/**
 * Copies the sample manifests to <DATA_DIR>/scrape/demo (never over a folder that exists: those files are the
 * visitor's now), creates the file scraper that reads them, and runs it once so the catalog has its items at first
 * sight. Its schedule row is written with it, so the scheduler does not run it again the moment it notices it.
 */
export async function seedScrapersDemo(pool: pg.Pool, options: ScrapersDemoOptions): Promise<ScrapeRunOutcome | null> {
  const existing = await pool.query('select 1 from config_scrapers where name = $1 and deleted_at is null', [DEMO_SCRAPER_NAME]);
  if ((existing.rowCount ?? 0) > 0) return null;
  const folder = demoScrapeDir(options.dataDir);
  if (!existsSync(folder)) {
    mkdirSync(path.dirname(folder), { recursive: true });
    cpSync(demoManifestsDir(), folder, { recursive: true });
  }
  const spec = demoScraperSpec();
  const inserted = await pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null }>(
    `with s as (
       insert into config_scrapers (name, namespace, description, source, schedule, spec, created_by)
       values ($1, 'demo', 'Sample Kubernetes manifests, service settings and infrastructure of the demo shop', 'UI', $2, $3, $4)
       returning id, name, spec, agent_id, updated_at
     ), sched as (
       insert into config_scrapers_schedule (scraper_id, scraper_updated_at, next_runtime)
       select id, updated_at, now() + interval '5 minutes' from s
     )
     select id, name, spec, agent_id from s`,
    [DEMO_SCRAPER_NAME, DEMO_SCHEDULE, JSON.stringify(spec), options.createdBy],
  );
  const scraper = inserted.rows[0];
  if (scraper === undefined) throw new Error('demo scraper insert returned no id');
  return runScrape(
    { pool, secretKey: options.secretKey, roots: [realpathSync(path.join(options.dataDir, 'scrape'))], ownDatabaseUrl: null },
    scraper,
  );
}
