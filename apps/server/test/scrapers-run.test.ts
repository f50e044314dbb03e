import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScrapeDir, rewriteDemoFile } from '../src/modules/scrapers/demo-rewrites';
import { runScrape, type ScrapeRunOutcome } from '../src/modules/scrapers/run-scrape';
import {
  DEFAULT_SCRAPE_SCHEDULE,
  effectiveScrapeSchedule,
  KUBERNETES_DEFAULT_SCHEDULE,
  ScrapeScheduler,
  syncScrapeSchedule,
} from '../src/modules/scrapers/scrape-scheduler';
import type { SourceRegistry } from '../src/modules/scrapers/sources';
import type { ScrapeResult, SourceRunner } from '../src/modules/scrapers/types';
import { seedScrapersDemo } from '../src/seed/scrapers';
import { startTestServer, type TestServer } from './harness';

interface JobRow {
  name: string;
  resource_type: string;
  status: string;
  success_count: number;
  error_count: number;
  duration_millis: number | null;
  hostname: string | null;
  time_end: string | null;
  details: { scrape_summary: { types: Record<string, { added: number }> } | null; errors: string[] };
}

const EMPTY: ScrapeResult = { items: [], relationships: [], changes: [], errors: [], complete: false };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Assigning undefined to process.env stores the text 'undefined'. */
function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

function deployment(name: string, replicas: number): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: shop\n  uid: uid-${name}\nspec:\n  replicas: ${replicas}\n`;
}

describe('running scrapers: Run Now, the scheduler and job history', () => {
  let server: TestServer;
  let root: string;
  let editor: string;
  const previous = { role: process.env.OPSDECK_ROLE, roots: process.env.OPSDECK_SCRAPE_ROOTS };

  const schedulerWith = (runners?: SourceRegistry): ScrapeScheduler =>
    new ScrapeScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, roots: [root], ownDatabaseUrl: null, runners });

  async function createScraper(name: string, spec: Record<string, unknown>, schedule: string | null = null): Promise<string> {
    const row = await server.pool.query<{ id: string }>('insert into config_scrapers (name, spec, schedule) values ($1, $2, $3) returning id', [
      name,
      JSON.stringify(spec),
      schedule,
    ]);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error('no scraper id');
    await syncScrapeSchedule(server.pool);
    // Each test runs its own scraper alone: the others wait for their schedules.
    await server.pool.query(`update config_scrapers_schedule set next_runtime = now() + interval '1 day' where scraper_id <> $1`, [id]);
    return id;
  }

  function folder(name: string): string {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  function fileSpec(dir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      ...extra,
      file: [{ class: 'Kubernetes', type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', format: 'yaml', icon: 'kubernetes', paths: [`${dir}/*.yaml`] }],
    };
  }

  async function latestJob(scraperId: string): Promise<JobRow> {
    const row = await server.pool.query<JobRow>(
      `select name, resource_type, status, success_count, error_count, duration_millis, hostname, time_end, details
         from job_history where resource_id = $1 order by created_at desc limit 1`,
      [scraperId],
    );
    const job = row.rows[0];
    if (job === undefined) throw new Error('no job_history row');
    return job;
  }

  async function liveItems(scraperId: string): Promise<string[]> {
    const rows = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 and deleted_at is null order by name', [scraperId]);
    return rows.rows.map((row) => row.name);
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-run-')));
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    // The api role starts no scheduler of its own, so each test drives schedulers explicitly.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_ROLE', previous.role);
    restoreEnv('OPSDECK_SCRAPE_ROOTS', previous.roots);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('queues a run with Run Now (202) that the next scheduler pass records as SUCCESS with its summary and items', async () => {
    const dir = folder('run-now');
    writeFileSync(path.join(dir, 'checkout.yaml'), deployment('checkout', 3));
    writeFileSync(path.join(dir, 'cart.yaml'), deployment('cart', 2));
    const id = await createScraper('run-now', fileSpec(dir));
    await server.pool.query(`update config_scrapers_schedule set next_runtime = now() + interval '1 day' where scraper_id = $1`, [id]);

    const queued = await server.call('POST', `/api/config/scrapers/${id}/run`, editor);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json).toEqual({ id, status: 'queued' });

    const outcomes = await schedulerWith().runDue();
    expect(outcomes.get(id)?.status).toBe('SUCCESS');
    const job = await latestJob(id);
    expect(job).toMatchObject({ name: 'Scraper', resource_type: 'config_scraper', status: 'SUCCESS', success_count: 2, error_count: 0, hostname: os.hostname() });
    expect(job.time_end).not.toBeNull();
    expect(job.duration_millis).toEqual(expect.any(Number));
    expect(job.details.scrape_summary?.types['Kubernetes::Deployment']?.added).toBe(2);
    expect(await liveItems(id)).toEqual(['cart', 'checkout']);

    const schedule = await server.pool.query<{ running: boolean; lease_owner: string | null; minutes: number }>(
      `select running, lease_owner, extract(epoch from next_runtime - now()) / 60 as minutes from config_scrapers_schedule where scraper_id = $1`,
      [id],
    );
    expect(schedule.rows[0]).toMatchObject({ running: false, lease_owner: null });
    expect(Number(schedule.rows[0]?.minutes)).toBeGreaterThan(55);
  });

  it('answers Run Now for an unknown or deleted scraper with a coded 404', async () => {
    const unknown = await server.call('POST', '/api/config/scrapers/00000000-0000-4000-8000-000000000001/run', editor);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'OD404', message: 'Scraper not found' });

    const id = await createScraper('deleted-one', fileSpec(folder('deleted-one')));
    await server.pool.query('update config_scrapers set deleted_at = now() where id = $1', [id]);
    const deleted = await server.call('POST', `/api/config/scrapers/${id}/run`, editor);
    expect(deleted.status).toBe(404);
  });

  it('refuses Run Now with 403 to roles without write on config_scrapers', async () => {
    const id = await createScraper('not-yours', fileSpec(folder('not-yours')));
    for (const role of ['viewer', 'responder'] as const) {
      const refused = await server.call('POST', `/api/config/scrapers/${id}/run`, await server.cookieFor(role));
      expect(refused.status, role).toBe(403);
      expect(refused.json).toMatchObject({ code: 'OD403' });
    }
  });

  it('records a malformed source file in job history as WARNING and keeps every stored item', async () => {
    const dir = folder('malformed');
    writeFileSync(path.join(dir, 'checkout.yaml'), deployment('checkout', 3));
    writeFileSync(path.join(dir, 'cart.yaml'), deployment('cart', 2));
    const id = await createScraper('malformed', fileSpec(dir));
    expect((await schedulerWith().runDue()).get(id)?.status).toBe('SUCCESS');

    writeFileSync(path.join(dir, 'cart.yaml'), 'kind: Deployment\nmetadata: [unclosed\n');
    await server.call('POST', `/api/config/scrapers/${id}/run`, editor);
    const outcome = (await schedulerWith().runDue()).get(id);
    expect(outcome?.status).toBe('WARNING');
    const job = await latestJob(id);
    expect(job).toMatchObject({ status: 'WARNING', success_count: 1, error_count: 1 });
    expect(job.details.errors.join('\n')).toContain('cart.yaml');
    expect(await liveItems(id)).toEqual(['cart', 'checkout']);
  });

  it('records a run that finds nothing usable as FAILED with the error text', async () => {
    const dir = folder('all-bad');
    writeFileSync(path.join(dir, 'broken.yaml'), 'kind: [\n');
    const id = await createScraper('all-bad', fileSpec(dir));
    const outcome = (await schedulerWith().runDue()).get(id);
    expect(outcome?.status).toBe('FAILED');
    const job = await latestJob(id);
    expect(job).toMatchObject({ status: 'FAILED', success_count: 0, error_count: 1 });
    expect(job.details.errors[0]).toMatch(/^file\[0\] .*broken\.yaml: /);
  });

  it('never runs one scraper in two schedulers at once, and shows the run as RUNNING while it lasts', async () => {
    let active = 0;
    let most = 0;
    let calls = 0;
    const slow: SourceRunner = async () => {
      calls += 1;
      active += 1;
      most = Math.max(most, active);
      await sleep(1000);
      active -= 1;
      return EMPTY;
    };
    const runners: SourceRegistry = new Map([['file', slow]]);
    const id = await createScraper('leased', fileSpec(folder('leased')));
    const first = schedulerWith(runners);
    const second = schedulerWith(runners);
    const both = Promise.all([first.runDue(), second.runDue(), sleep(150).then(() => second.runDue())]);
    await sleep(400);
    expect((await latestJob(id)).status).toBe('RUNNING');
    const [a, b, c] = await both;
    expect([a, b, c].filter((outcomes) => outcomes.has(id))).toHaveLength(1);
    expect(calls).toBe(1);
    expect(most).toBe(1);
    expect(first.owner).not.toBe(second.owner);
  });

  it('aborts a run that passes its timeout and records it as FAILED', async () => {
    let aborted = false;
    const stuck: SourceRunner = (_entry, context) =>
      new Promise<ScrapeResult>((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted = true;
          // A source that goes on after the abort must not hold the run.
          setTimeout(() => resolve(EMPTY), 5000);
        });
      });
    const id = await createScraper('too-slow', fileSpec(folder('too-slow'), { timeout: '1s' }));
    const started = Date.now();
    const outcome = (await schedulerWith(new Map([['file', stuck]])).runDue()).get(id);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(aborted).toBe(true);
    expect(outcome?.status).toBe('FAILED');
    const job = await latestJob(id);
    expect(job.status).toBe('FAILED');
    expect(job.details.errors.join('\n')).toMatch(/timeout of 1 s/);
  });

  it('records a run cut short by the scheduler stopping as STOPPED without waiting for a source that hangs', async () => {
    const hangs: SourceRunner = () => new Promise<ScrapeResult>(() => undefined);
    const id = await createScraper('stopped', fileSpec(folder('stopped')));
    const scheduler = schedulerWith(new Map([['file', hangs]]));
    const pending = scheduler.runDue();
    await sleep(300);
    await scheduler.stop();
    expect((await pending).get(id)?.status).toBe('STOPPED');
    const job = await latestJob(id);
    expect(job.status).toBe('STOPPED');
    expect(job.details.errors.join('\n')).toContain('the server is stopping');
  });

  it('keeps sealed secrets out of the errors job history stores', async () => {
    const secret = 'hunter2-very-secret';
    const leaky: SourceRunner = async () => ({ ...EMPTY, errors: [{ where: 'http[0]', message: `login refused for password ${secret}` }] });
    const id = await createScraper('leaky', { http: [{ url: 'http://127.0.0.1:9/', password: secret }] });
    const outcome: ScrapeRunOutcome | undefined = (await schedulerWith(new Map([['http', leaky]])).runDue()).get(id);
    expect(outcome?.status).toBe('FAILED');
    const job = await latestJob(id);
    expect(JSON.stringify(job.details)).not.toContain(secret);
    expect(job.details.errors[0]).toContain('[REDACTED]');
  });

  it('runs kubernetes scrapers every 30 minutes by default, others hourly, and a set schedule first', async () => {
    const spec = (kind: string): { sources: Array<{ kind: string; index: number; spec: Record<string, unknown> }>; schedule: string | null; retention: { changes: []; types: [] }; timeoutMs: number } => ({
      sources: [{ kind, index: 0, spec: {} }],
      schedule: null,
      retention: { changes: [], types: [] },
      timeoutMs: 1000,
    });
    expect(effectiveScrapeSchedule(null, spec('kubernetes'))).toBe(KUBERNETES_DEFAULT_SCHEDULE);
    expect(KUBERNETES_DEFAULT_SCHEDULE).toBe('@every 30m');
    expect(effectiveScrapeSchedule(null, spec('file'))).toBe(DEFAULT_SCRAPE_SCHEDULE);
    expect(effectiveScrapeSchedule(null, { ...spec('kubernetes'), schedule: '@every 5m' })).toBe('@every 5m');
    expect(effectiveScrapeSchedule('@daily', { ...spec('kubernetes'), schedule: '@every 5m' })).toBe('@daily');

    const id = await createScraper('cluster', { kubernetes: [{ clusterName: 'demo' }] });
    await schedulerWith(new Map([['kubernetes', async () => EMPTY]])).runDue();
    const next = await server.pool.query<{ minutes: number }>(
      'select extract(epoch from next_runtime - now()) / 60 as minutes from config_scrapers_schedule where scraper_id = $1',
      [id],
    );
    expect(Number(next.rows[0]?.minutes)).toBeGreaterThan(29);
    expect(Number(next.rows[0]?.minutes)).toBeLessThanOrEqual(30);
  });

  it('keeps one schedule row per live scraper: a new or edited one is due at once, a deleted one is dropped', async () => {
    const id = await createScraper('followed', fileSpec(folder('followed')));
    await server.pool.query(`update config_scrapers_schedule set next_runtime = now() + interval '1 day' where scraper_id = $1`, [id]);
    expect(await syncScrapeSchedule(server.pool)).toBe(0);

    await server.pool.query(`update config_scrapers set description = 'edited' where id = $1`, [id]);
    expect(await syncScrapeSchedule(server.pool)).toBe(1);
    const due = await server.pool.query<{ due: boolean }>('select next_runtime <= now() as due from config_scrapers_schedule where scraper_id = $1', [id]);
    expect(due.rows[0]?.due).toBe(true);

    await server.pool.query('update config_scrapers set deleted_at = now() where id = $1', [id]);
    await syncScrapeSchedule(server.pool);
    const gone = await server.pool.query('select 1 from config_scrapers_schedule where scraper_id = $1', [id]);
    expect(gone.rowCount).toBe(0);
  });

  it('leaves a spec naming a kind this server does not run off the schedule, yet runs it on Run Now and says why', async () => {
    const id = await createScraper('odd-kind', { trivy: [{}] });
    const scheduled = await server.pool.query('select 1 from config_scrapers_schedule where scraper_id = $1', [id]);
    expect(scheduled.rowCount).toBe(0);

    expect((await server.call('POST', `/api/config/scrapers/${id}/run`, editor)).status).toBe(202);
    await syncScrapeSchedule(server.pool);
    const requested = (await schedulerWith().runDue()).get(id);
    expect(requested?.status).toBe('FAILED');
    expect((await latestJob(id)).details.errors.join('\n')).toContain("source kind 'trivy' is not run by this server");
    await syncScrapeSchedule(server.pool);
    expect((await server.pool.query('select 1 from config_scrapers_schedule where scraper_id = $1', [id])).rowCount).toBe(0);
  });

  it('reports an unknown source kind given straight to runScrape as an error, not a throw', async () => {
    const id = await createScraper('odd-kind-direct', { trivy: [{}] });
    const outcome = await runScrape(
      { pool: server.pool, secretKey: server.running.context.config.secretKey, roots: [root], ownDatabaseUrl: null, runners: new Map() },
      { id, name: 'odd-kind-direct', spec: { trivy: [{}] }, agent_id: null },
    );
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errors[0]?.message).toContain("'trivy' is not run by this server");
  });
});

describe('the demo file scraper', () => {
  let server: TestServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-demo-scrape-')));
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies the shipped manifests, scrapes them at once, and finds the change each timed rewrite makes', async () => {
    const secretKey = server.running.context.config.secretKey;
    const first = await seedScrapersDemo(server.pool, { dataDir, secretKey, createdBy: null });
    expect(first?.status, JSON.stringify(first?.errors)).toBe('SUCCESS');
    expect(first?.itemsSeen).toBeGreaterThanOrEqual(15);
    expect(Object.keys(first?.summary?.types ?? {})).toEqual(
      expect.arrayContaining(['Kubernetes::Deployment', 'Kubernetes::Pod', 'Kubernetes::Service', 'Application::Service', 'Database::PostgreSQL']),
    );
    expect(await seedScrapersDemo(server.pool, { dataDir, secretKey, createdBy: null })).toBeNull();

    const scraper = await server.pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null; schedule: string }>(
      `select id, name, spec, agent_id, schedule from config_scrapers where name = 'demo-manifests'`,
    );
    const row = scraper.rows[0];
    if (row === undefined) throw new Error('no demo scraper');
    expect(row.schedule).toBe('@every 5m');

    expect(rewriteDemoFile(demoScrapeDir(dataDir), 0)).toBe(true);
    const again = await runScrape({ pool: server.pool, secretKey, roots: [path.join(dataDir, 'scrape')], ownDatabaseUrl: null }, row);
    expect(again.status).toBe('SUCCESS');
    expect(again.summary?.types['Kubernetes::Deployment']).toMatchObject({ updated: 1 });
  });
});

describe('the scrapers plugin in a worker process', () => {
  let server: TestServer;
  let root: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-worker-')));
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    server = await startTestServer({ workers: true });
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_SCRAPE_ROOTS', previousRoots);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs a scraper saved through the data API at once, with no Run Now, and leaves the demo estate unscheduled', async () => {
    writeFileSync(path.join(root, 'checkout.yaml'), deployment('checkout', 3));
    const spec = { file: [{ class: 'Kubernetes', type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', format: 'yaml', icon: 'kubernetes', paths: [`${root}/*.yaml`] }] };
    const created = await server.call('POST', '/api/db/config_scrapers', await server.cookieFor('editor'), { name: 'saved', spec }, { prefer: 'return=representation' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id;
    let status: string | undefined;
    for (let attempt = 0; attempt < 100 && status !== 'SUCCESS'; attempt += 1) {
      await sleep(100);
      const job = await server.pool.query<{ status: string }>('select status from job_history where resource_id = $1 order by created_at desc limit 1', [id]);
      status = job.rows[0]?.status;
    }
    expect(status).toBe('SUCCESS');
    const estate = await server.pool.query(
      `select 1 from config_scrapers_schedule c join config_scrapers s on s.id = c.scraper_id where s.name = 'demo-estate'`,
    );
    expect(estate.rowCount).toBe(0);
  });
});
