import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../src/auth/shared/passwords';
import { freePort, waitUntilHealthy } from '../src/bench/server-process';
import { TestBrowser } from './auth-client';
import { parsePrometheusText, sumOf, type MetricFamily } from './prometheus-text';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER = path.join(ROOT, 'apps/server');
const METRICS_TOKEN = 'scale-out-metrics-token-0123456789';
const PASSWORD = 'scale-out-password-123';
const EMAIL = 'scale@opsdeck.test';
/** Short leases, so the killed worker's work is taken over within seconds rather than minutes. */
const LEASE_SECONDS = 3;
const CHECK_INTERVAL_MS = 2000;
const SCHEDULE_INTERVAL_MS = 3000;

interface Node {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  url: string;
  /** Where its /metrics answer: the main listener with the token, or the metrics port without. */
  metricsUrl: string;
  metricsToken: string | null;
  output: () => string;
  exited: Promise<void>;
}

/** What the local sink saw: every check probe, webhook delivery and playbook action request, by path. */
interface SinkRequest {
  path: string;
  idempotencyKey: string | null;
  at: number;
}

class Sink {
  readonly requests: SinkRequest[] = [];
  private readonly hits = new Map<string, number>();
  /** Requests to /hang/… wait here until released: work a worker is in the middle of when it is killed. */
  private readonly held: ServerResponse[] = [];
  hanging = true;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(prefix: string): number {
    return this.requests.filter((request) => request.path.startsWith(prefix)).length;
  }

  release(): void {
    this.hanging = false;
    for (const response of this.held.splice(0)) if (!response.destroyed) response.writeHead(200).end('released');
  }

  async close(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === null ? resolve() : this.server.close(() => resolve())));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    request.on('end', () => {
      const pathname = (request.url ?? '/').split('?')[0] ?? '/';
      const key = request.headers['idempotency-key'];
      this.requests.push({ path: pathname, idempotencyKey: typeof key === 'string' ? key : null, at: Date.now() });
      const hit = (this.hits.get(pathname) ?? 0) + 1;
      this.hits.set(pathname, hit);
      if (pathname.startsWith('/hang') && this.hanging) {
        this.held.push(response);
        return;
      }
      // Each flip check fails on every other probe, so each of its runs changes its status and queues an event.
      if (pathname.startsWith('/flip/')) response.writeHead(hit % 2 === 1 ? 500 : 200).end('flip');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number, nodes: Node[] = []): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}\n${nodes.map((node) => `--- ${node.name}\n${node.output().slice(-3000)}`).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function scrape(node: Node): Promise<Map<string, MetricFamily>> {
  const response = await fetch(node.metricsUrl, node.metricsToken === null ? {} : { headers: { authorization: `Bearer ${node.metricsToken}` } });
  if (response.status !== 200) throw new Error(`${node.name} /metrics answered ${response.status}: ${await response.text()}`);
  return parsePrometheusText(await response.text());
}

/** lease_owner and locked_by read host:pid:suffix; the pid says which process holds the row. */
function pidOf(owner: string | null): number | null {
  const pid = Number((owner ?? '').split(':')[1]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

// Three processes share one database only with PostgreSQL: the embedded PGlite belongs to the one process that opened
// it (a lock file on its data folder), so on the PGlite run this suite has nothing to prove and is skipped.
describe.skipIf(inject('dbMode') !== 'postgres')('three compiled server processes on one PostgreSQL (skipped on PGlite: one embedded database serves one process)', () => {
  const adminUrl = inject('postgresAdminUrl');
  const databaseName = `opsdeck_scale_${randomBytes(6).toString('hex')}`;
  const nodes: Node[] = [];
  const sink = new Sink();
  const folders: string[] = [];
  let pool: pg.Pool | null = null;
  let entry = '';
  let scrapeDir = '';

  function db(): pg.Pool {
    if (pool === null) throw new Error('the database is not open');
    return pool;
  }

  function startNode(name: string, role: 'api' | 'worker', port: number, databaseUrl: string, extra: NodeJS.ProcessEnv, metrics: { url: string; token: string | null }): Node {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `opsdeck-scale-${name}-`));
    folders.push(dataDir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      OPSDECK_WEB_DIST: dataDir,
      OPSDECK_SEED_DEMO: 'false',
      OPSDECK_SECRET_KEY: '07'.repeat(32),
      OPSDECK_SCRAPE_ROOTS: scrapeDir,
      OPSDECK_LEASE_SECONDS: String(LEASE_SECONDS),
      OPSDECK_EVENT_LEASE_SECONDS: String(LEASE_SECONDS),
      OPSDECK_PLAYBOOK_LEASE_MS: String(LEASE_SECONDS * 1000),
      // Fewer network checks at once than the 12 hanging ones below, so each worker holds some when one is killed.
      OPSDECK_NETWORK_CHECK_CONCURRENCY: '8',
      ...extra,
    };
    const child = spawn(process.execPath, [entry, 'serve', `--role=${role}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { name, role, child, url: `http://127.0.0.1:${port}`, metricsUrl: metrics.url, metricsToken: metrics.token, output: () => output, exited };
  }

  beforeAll(async () => {
    mkdirSync(path.join(SERVER, '.tmp'), { recursive: true });
    const buildDir = mkdtempSync(path.join(SERVER, '.tmp', 'scale-build-'));
    folders.push(buildDir);
    entry = path.join(buildDir, 'dist', 'main.js');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), '--outdir', path.join(buildDir, 'dist')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}${build.stderr}`);
    scrapeDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scale-scrape-'));
    folders.push(scrapeDir);
    writeFileSync(path.join(scrapeDir, 'web.yaml'), 'kind: Deployment\nmetadata:\n  name: web\n  uid: uid-web\n');
    await sink.start();

    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    const databaseUrl = url.toString();

    // All three start at once on the empty database: the migration lock makes one of them migrate, the others wait.
    const [apiPort, workerAPort, workerBPort, workerBMetricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const ports = { api: apiPort ?? 0, a: workerAPort ?? 0, b: workerBPort ?? 0, bMetrics: workerBMetricsPort ?? 0 };
    const tokenEnv = { OPSDECK_METRICS_TOKEN: METRICS_TOKEN };
    nodes.push(startNode('api', 'api', ports.api, databaseUrl, tokenEnv, { url: `http://127.0.0.1:${ports.api}/metrics`, token: METRICS_TOKEN }));
    nodes.push(startNode('worker-a', 'worker', ports.a, databaseUrl, tokenEnv, { url: `http://127.0.0.1:${ports.a}/metrics`, token: METRICS_TOKEN }));
    // The second worker serves its metrics on a port of their own (main.ts's second listener) and not on the main one.
    nodes.push(
      startNode('worker-b', 'worker', ports.b, databaseUrl, { OPSDECK_METRICS_PORT: String(ports.bMetrics) }, { url: `http://127.0.0.1:${ports.bMetrics}/metrics`, token: null }),
    );
    await Promise.all(
      nodes.map((node) => waitUntilHealthy(node.url, { hasExited: () => node.child.exitCode !== null, output: node.output, timeoutMs: 90_000, pollMs: 200 })),
    );
    pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  }, 150_000);

  afterAll(async () => {
    for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
    await Promise.race([Promise.all(nodes.map((node) => node.exited)), new Promise((resolve) => setTimeout(resolve, 15_000))]);
    for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    await pool?.end();
    await sink.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('runs each check, scraper, topology and playbook action once, consumes each event once, shares sessions, and survives a killed worker', { timeout: 150_000 }, async () => {
    const [api, workerA, workerB] = nodes as [Node, Node, Node];

    // A person, then a session made by signing in on the api node and used on both workers.
    const personId = (await db().query<{ id: string }>(`insert into people (name, email) values ('Scale Admin', $1) returning id`, [EMAIL])).rows[0]?.id;
    await db().query('insert into identities (id, traits) values ($1, $2)', [personId, JSON.stringify({ email: EMAIL, name: { first: 'Scale', last: 'Admin' } })]);
    await db().query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
      personId,
      [EMAIL],
      JSON.stringify({ hashed_password: await hashPassword(PASSWORD) }),
    ]);
    await db().query(`insert into person_roles (person_id, role) values ($1, 'admin')`, [personId]);
    const browser = new TestBrowser(api.url);
    expect((await browser.signIn(EMAIL, PASSWORD)).status).toBe(200);
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    for (const node of [workerA, workerB]) {
      const whoami = await fetch(`${node.url}/api/auth/sessions/whoami`, { headers: { cookie } });
      expect({ node: node.name, status: whoami.status }).toEqual({ node: node.name, status: 200 });
      expect(((await whoami.json()) as { identity: { traits: { email: string } } }).identity.traits.email).toBe(EMAIL);
    }
    const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> => {
      const response = await fetch(`${api.url}${url}`, {
        method,
        headers: { cookie, 'x-requested-with': 'XMLHttpRequest', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
      return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    };

    // A notification to the sink on every status change of a check, without a flap window, before any check runs.
    await db().query(`insert into connections (name, namespace, type, url, properties) values ('sink', 'default', 'generic_webhook', $1, '{}')`, [`${sink.url}/hook`]);
    await db().query(`insert into notifications (events, custom_services, properties) values ($1, $2, $3)`, [
      ['check.failed', 'check.passed'],
      JSON.stringify([{ connection: 'sink' }]),
      JSON.stringify({ flapWindowSeconds: 0 }),
    ]);

    // Work of every kind, created through the api node (which runs none of it).
    const flipYaml = `schedule: "@every ${CHECK_INTERVAL_MS / 1000}s"\nhttp:\n${Array.from({ length: 6 }, (_, i) => `  - name: flip-${i}\n    url: ${sink.url}/flip/${i}\n`).join('')}`;
    const canary = await call('POST', '/api/canary/canaries', { name: 'flips', yaml: flipYaml });
    const scraper = (await call('POST', '/api/db/config_scrapers', {
      name: 'scale-files',
      schedule: `@every ${SCHEDULE_INTERVAL_MS / 1000}s`,
      spec: { file: [{ class: 'Kubernetes', type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', format: 'yaml', icon: 'kubernetes', paths: [`${scrapeDir}/*.yaml`] }] },
    }, { prefer: 'return=representation' })) as unknown as Array<{ id: string }>;
    const topologyId = (
      await db().query<{ id: string }>(`insert into topologies (name, spec, schedule) values ('scale-tree', $1, $2) returning id`, [
        JSON.stringify({ components: [{ name: 'web' }, { name: 'db' }] }),
        `@every ${SCHEDULE_INTERVAL_MS / 1000}s`,
      ])
    ).rows[0]?.id;
    const playbookId = (
      await db().query<{ id: string }>(`insert into playbooks (name, spec) values ('scale-actions', $1) returning id`, [
        JSON.stringify({ actions: [{ name: 'first', http: { url: `${sink.url}/action/first` } }, { name: 'second', http: { url: `${sink.url}/action/second` } }] }),
      ])
    ).rows[0]?.id;
    const runIds: string[] = [];
    for (let i = 0; i < 6; i += 1) runIds.push(String((await call('POST', '/api/playbook/run', { id: playbookId })).run_id));

    // Let the workers share the work until every kind has run a few times; on a loaded machine that takes longer than
    // the intervals alone say, so the test waits for the work rather than for a fixed time.
    await until(
      'every check to run three times and the scraper and topology twice',
      async () => {
        const checks = await db().query<{ runs: number }>('select count(*)::int as runs from check_statuses group by check_id');
        const jobs = await db().query<{ runs: number }>('select count(*)::int as runs from job_history where resource_id = any($1::uuid[]) group by resource_id', [
          [scraper[0]?.id, topologyId],
        ]);
        return checks.rows.length === 6 && checks.rows.every((row) => row.runs >= 3) && jobs.rows.length === 2 && jobs.rows.every((row) => row.runs >= 2);
      },
      60_000,
      nodes,
    );
    await until(
      'the playbook runs to finish',
      async () => (await db().query(`select 1 from playbook_runs where id = any($1::uuid[]) and status = 'completed'`, [runIds])).rowCount === runIds.length,
      30_000,
      nodes,
    );
    // Quiesce: no more checks, scrapes or builds; then wait for what is under way and for the queued events.
    await call('DELETE', `/api/canary/canaries/${String(canary.id)}`);
    await db().query('update config_scrapers set deleted_at = now() where id = $1', [scraper[0]?.id]);
    await db().query('update topologies set deleted_at = now() where id = $1', [topologyId]);
    await until(
      'the leases to be released and the events consumed',
      async () => {
        const busy = await db().query(
          `select 1 from checks where lease_owner is not null
           union all select 1 from config_scrapers_schedule where running
           union all select 1 from topologies_schedule where running
           union all select 1 from event_queue where consumer = 'notifications'`,
        );
        return busy.rowCount === 0;
      },
      30_000,
      nodes,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Checks: consecutive runs of one check are never closer than its interval, whichever process ran them.
    const statuses = await db().query<{ check_id: string; time: string; status: boolean }>('select check_id, time, status from check_statuses order by check_id, time');
    const byCheck = new Map<string, Array<{ at: number; status: boolean }>>();
    for (const row of statuses.rows) byCheck.set(row.check_id, [...(byCheck.get(row.check_id) ?? []), { at: Date.parse(row.time), status: row.status }]);
    expect(byCheck.size).toBe(6);
    let transitions = 0;
    for (const runs of byCheck.values()) {
      expect(runs.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < runs.length; i += 1) expect((runs[i]?.at ?? 0) - (runs[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(CHECK_INTERVAL_MS * 0.9);
      transitions += runs.filter((run, i) => i === 0 || run.status !== runs[i - 1]?.status).length;
    }
    // Each probe of the sink is one recorded run: no check ran twice for one due time.
    expect(sink.count('/flip/')).toBe(statuses.rowCount);

    // Scrapers and topologies: runs never overlap and follow their schedule.
    for (const [kind, id] of [['scraper', scraper[0]?.id], ['topology', topologyId]] as const) {
      const jobs = await db().query<{ time_start: string; time_end: string }>('select time_start, time_end from job_history where resource_id = $1 order by time_start', [id]);
      expect({ kind, runs: jobs.rowCount }).toEqual({ kind, runs: expect.any(Number) });
      expect(jobs.rowCount ?? 0).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < jobs.rows.length; i += 1) {
        const previous = jobs.rows[i - 1];
        const current = jobs.rows[i];
        expect(Date.parse(current?.time_start ?? '')).toBeGreaterThanOrEqual(Date.parse(previous?.time_end ?? ''));
        expect(Date.parse(current?.time_start ?? '') - Date.parse(previous?.time_start ?? '')).toBeGreaterThanOrEqual(SCHEDULE_INTERVAL_MS * 0.9);
      }
    }

    // Playbooks: each run's actions were requested once each.
    expect(sink.count('/action/first')).toBe(runIds.length);
    expect(sink.count('/action/second')).toBe(runIds.length);
    const actions = await db().query<{ n: number }>(`select count(*)::int as n from playbook_run_actions where playbook_run_id = any($1::uuid[])`, [runIds]);
    expect(actions.rows[0]?.n).toBe(runIds.length * 2);

    // Events: one per status change, each handled by one consumer pass and delivered once.
    const hooks = sink.requests.filter((request) => request.path === '/hook');
    const handled = await db().query<{ n: number }>(
      `select coalesce(sum(success_count + error_count), 0)::int as n from job_history where name = 'EventQueueConsumer:notifications'`,
    );
    expect(handled.rows[0]?.n).toBe(transitions);
    expect(hooks).toHaveLength(transitions);
    expect(new Set(hooks.map((hook) => hook.idempotencyKey)).size).toBe(transitions);

    // Each process counted only its own work: the api node none, the workers all of it between them.
    const [apiMetrics, aMetrics, bMetrics] = await Promise.all(nodes.map((node) => scrape(node)));
    const workerSum = (family: string, sample: string, labels: Record<string, string> = {}) =>
      sumOf(aMetrics as Map<string, MetricFamily>, family, sample, labels) + sumOf(bMetrics as Map<string, MetricFamily>, family, sample, labels);
    const counted: Array<[string, string, Record<string, string>, number]> = [
      ['opsdeck_check_runs_total', 'opsdeck_check_runs_total', { type: 'http' }, statuses.rowCount ?? 0],
      ['opsdeck_scraper_run_duration_seconds', 'opsdeck_scraper_run_duration_seconds_count', {}, (await db().query('select 1 from job_history where resource_id = $1', [scraper[0]?.id])).rowCount ?? 0],
      ['opsdeck_topology_run_duration_seconds', 'opsdeck_topology_run_duration_seconds_count', {}, (await db().query('select 1 from job_history where resource_id = $1', [topologyId])).rowCount ?? 0],
      ['opsdeck_playbook_run_duration_seconds', 'opsdeck_playbook_run_duration_seconds_count', { status: 'completed' }, runIds.length],
      ['opsdeck_notification_deliveries_total', 'opsdeck_notification_deliveries_total', { result: 'sent' }, transitions],
    ];
    for (const [family, sample, labels, expected] of counted) {
      expect({ family, api: sumOf(apiMetrics as Map<string, MetricFamily>, family, sample, labels) }).toEqual({ family, api: 0 });
      expect({ family, workers: workerSum(family, sample, labels) }).toEqual({ family, workers: expected });
    }
    expect(sumOf(apiMetrics as Map<string, MetricFamily>, 'opsdeck_build_info', 'opsdeck_build_info', { role: 'api' })).toBe(1);
    expect(sumOf(bMetrics as Map<string, MetricFamily>, 'opsdeck_build_info', 'opsdeck_build_info', { role: 'worker' })).toBe(1);
    // Worker B serves metrics only on its metrics port.
    expect((await fetch(`${workerB.url}/metrics`)).status).toBe(404);

    // Now work that hangs, a worker killed in the middle of it, and the other finishing it.
    const hangYaml = `schedule: "@every ${CHECK_INTERVAL_MS / 1000}s"\nhttp:\n${Array.from({ length: 12 }, (_, i) => `  - name: hang-${i}\n    url: ${sink.url}/hang/check-${i}\n`).join('')}`;
    await call('POST', '/api/canary/canaries', { name: 'hangs', yaml: hangYaml });
    const hangPlaybook = (
      await db().query<{ id: string }>(`insert into playbooks (name, spec) values ('scale-hang', $1) returning id`, [
        JSON.stringify({ actions: [{ name: 'stuck', http: { url: `${sink.url}/hang/action` } }, { name: 'after', http: { url: `${sink.url}/after` } }] }),
      ])
    ).rows[0]?.id;
    const hangRun = String((await call('POST', '/api/playbook/run', { id: hangPlaybook })).run_id);
    const victimPid = await until(
      'a worker to hold the hanging playbook action',
      async () => {
        if (sink.count('/hang/action') === 0) return null;
        const row = await db().query<{ locked_by: string | null }>('select locked_by from playbook_runs where id = $1', [hangRun]);
        return pidOf(row.rows[0]?.locked_by ?? null);
      },
      20_000,
      nodes,
    );
    const victim = nodes.find((node) => node.child.pid === victimPid);
    const survivor = [workerA, workerB].find((node) => node !== victim);
    if (victim === undefined || survivor === undefined) throw new Error(`pid ${victimPid} is no worker of this test`);
    // 12 checks and 8 at once per worker: both workers hold some of them, hanging.
    await until('both workers to hold hanging checks', async () => sink.count('/hang/check-') >= 12, 20_000, nodes);
    const leased = await db().query<{ id: string; lease_owner: string }>(`select id, lease_owner from checks where name like 'hang-%' and lease_owner is not null`);
    const victimChecks = leased.rows.filter((row) => pidOf(row.lease_owner) === victimPid).map((row) => row.id);
    expect(victimChecks.length).toBeGreaterThan(0);

    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();
    sink.release();

    // Within a lease (plus a poll) the survivor runs the killed worker's checks and takes its playbook run over.
    await until(
      "the survivor to run every check the killed worker held",
      async () => {
        const rows = await db().query<{ n: number }>(
          `select count(distinct check_id)::int as n from check_statuses where check_id = any($1::uuid[]) and time > $2`,
          [victimChecks, new Date(killedAt).toISOString()],
        );
        return rows.rows[0]?.n === victimChecks.length;
      },
      25_000,
      nodes,
    );
    const finished = await until(
      'the survivor to finish the playbook run',
      async () => {
        const row = await db().query<{ status: string; locked_by: string | null }>('select status, locked_by from playbook_runs where id = $1', [hangRun]);
        const run = row.rows[0];
        return run !== undefined && ['completed', 'failed'].includes(run.status) ? run : null;
      },
      25_000,
      nodes,
    );
    const runActions = await db().query<{ name: string; status: string; error: string | null }>(
      'select name, status, error from playbook_run_actions where playbook_run_id = $1 order by position',
      [hangRun],
    );
    // The action cut off by the kill is not run a second time (it may have had effects): the survivor records it as
    // failed and ends the run, skipping what follows a failed action as every run does.
    expect(runActions.rows.map((action) => [action.name, action.status])).toEqual([
      ['stuck', 'failed'],
      ['after', 'skipped'],
    ]);
    expect(runActions.rows[0]?.error).toMatch(/server stopped/);
    expect(finished.status).toBe('failed');
    expect(sink.count('/hang/action')).toBe(1);
    expect(sink.count('/after')).toBe(0);
    expect(pidOf(finished.locked_by)).toBeNull();
    expect(survivor.child.exitCode).toBeNull();
  });
});
