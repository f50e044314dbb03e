import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import type { ScrapeSummary } from '../src/modules/scrapers/types';
import { startTestServer, type TestServer } from './harness';
import { startFakeKubeApi } from './fixtures/fake-kube-api';
import { startPostgresTarget } from './fixtures/postgres-target';
import { allowLocalDatabases } from './fixtures/local-databases';
import { startLocalHttp } from './fixtures/scrape-peers';

/**
 * Issue #12, "How it is checked": each source kind saved through the data API, run by the scheduler of a worker process
 * (Run Now) against a real local peer, changed between runs, with what the runs stored read back from the database.
 */

interface JobRow {
  status: string;
  success_count: number;
  error_count: number;
  details: { scrape_summary: ScrapeSummary | null; errors: string[] };
}

interface ChangeRow {
  id: string;
  summary: string;
  diff: string | null;
  patches: unknown;
  count: number;
  first_observed: string;
  created_at: string;
}

interface ItemRef {
  type: string;
  name: string;
}

/** One source kind's peer and how to change it between runs. */
interface Peer {
  /** The spec saved for the scraper: its one source. */
  spec: Record<string, unknown>;
  /** Live items per type after the first run. */
  types: Record<string, number>;
  /** The item whose replicas go 1 → 2 → 1 → 2, and the JSON pointer of its replicas. */
  changing: ItemRef & { pointer: string };
  /** The item removed from the source. */
  removed: ItemRef;
  setReplicas(replicas: number): Promise<void>;
  remove(): Promise<void>;
  /** Makes the source fail as the job history must then say. */
  breakSource(): Promise<void>;
  broken: { status: 'WARNING' | 'FAILED'; error: RegExp };
  close(): Promise<void>;
}

interface PeerContext {
  server: TestServer;
  root: string;
}

/** Job runs of one kind settle in well under a second; the margin covers a machine shared with other test runs. */
const JOB_TIMEOUT_MS = 15_000;
const POLL_MS = 100;

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

async function filePeer({ root }: PeerContext): Promise<Peer> {
  const dir = path.join(root, 'file-peer');
  mkdirSync(dir, { recursive: true });
  for (const name of ['cart', 'checkout', 'search']) writeFileSync(path.join(dir, `${name}.yaml`), deployment(name, 1));
  return {
    spec: { file: [{ class: 'Kubernetes', type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', format: 'yaml', icon: 'kubernetes', paths: [`${dir}/*.yaml`] }] },
    types: { 'Kubernetes::Deployment': 3 },
    changing: { type: 'Kubernetes::Deployment', name: 'checkout', pointer: '/spec/replicas' },
    removed: { type: 'Kubernetes::Deployment', name: 'cart' },
    setReplicas: async (replicas) => writeFileSync(path.join(dir, 'checkout.yaml'), deployment('checkout', replicas)),
    remove: async () => rmSync(path.join(dir, 'cart.yaml')),
    breakSource: async () => writeFileSync(path.join(dir, 'checkout.yaml'), 'kind: Deployment\nmetadata: [unclosed\n'),
    broken: { status: 'WARNING', error: /^file\[0\] .*checkout\.yaml: .*not valid YAML/ },
    close: async () => undefined,
  };
}

async function httpPeer(): Promise<Peer> {
  const apps = [
    { id: 'app-cart', name: 'cart', replicas: 1 },
    { id: 'app-checkout', name: 'checkout', replicas: 1 },
    { id: 'app-search', name: 'search', replicas: 1 },
  ];
  let failing = false;
  const peer = await startLocalHttp({
    '/apps': (_request, response) => {
      if (failing) response.writeHead(500, { 'content-type': 'text/plain' }).end('database is down');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apps }));
    },
  });
  return {
    spec: { http: [{ url: `${peer.url}/apps`, items: '$.apps', id: '$.id', type: 'Inventory::App', name: '$.name' }] },
    types: { 'Inventory::App': 3 },
    changing: { type: 'Inventory::App', name: 'checkout', pointer: '/replicas' },
    removed: { type: 'Inventory::App', name: 'cart' },
    setReplicas: async (replicas) => {
      for (const app of apps) if (app.name === 'checkout') app.replicas = replicas;
    },
    remove: async () => {
      apps.splice(
        apps.findIndex((app) => app.name === 'cart'),
        1,
      );
    },
    breakSource: async () => {
      failing = true;
    },
    broken: { status: 'FAILED', error: /^http\[0\] .*HTTP 500/ },
    close: () => peer.close(),
  };
}

async function sqlPeer({ server }: PeerContext): Promise<Peer> {
  const target = await startPostgresTarget();
  // A client per statement: the PGlite socket peer serves few connections, and the source needs one while it runs.
  const exec = async (sql: string, values: unknown[] = []): Promise<void> => {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(sql, values);
    } finally {
      await client.end();
    }
  };
  await exec('create table apps (id text primary key, name text not null, replicas integer not null)');
  await exec(`insert into apps values ('app-cart', 'cart', 1), ('app-checkout', 'checkout', 1), ('app-search', 'search', 1)`);
  await createConnection(server.pool, server.running.context.config.secretKey, { name: 'run-apps-db', type: 'postgres', url: target.url }, null);
  return {
    spec: { sql: [{ connection: 'connection://default/run-apps-db', query: 'select id, name, replicas from apps order by id', id: '$.id', type: 'Database::App', name: '$.name' }] },
    types: { 'Database::App': 3 },
    changing: { type: 'Database::App', name: 'checkout', pointer: '/replicas' },
    removed: { type: 'Database::App', name: 'cart' },
    setReplicas: (replicas) => exec(`update apps set replicas = $1 where name = 'checkout'`, [replicas]),
    remove: () => exec(`delete from apps where name = 'cart'`),
    breakSource: () => exec('drop table apps'),
    broken: { status: 'FAILED', error: /^sql\[0\]: .*relation "apps" does not exist/ },
    close: () => target.close(),
  };
}

/** The kinds the fake API serves by plural; secrets and events are never stored as items. */
const KUBE_KINDS: Record<string, string> = {
  namespaces: 'Namespace',
  nodes: 'Node',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  statefulsets: 'StatefulSet',
  daemonsets: 'DaemonSet',
  pods: 'Pod',
  services: 'Service',
  ingresses: 'Ingress',
  configmaps: 'ConfigMap',
  jobs: 'Job',
  cronjobs: 'CronJob',
  persistentvolumeclaims: 'PersistentVolumeClaim',
};

async function kubernetesPeer({ server }: PeerContext): Promise<Peer> {
  const api = await startFakeKubeApi();
  const web = (): Record<string, unknown> => {
    const spec = api.objects.deployments?.[0]?.spec;
    if (typeof spec !== 'object' || spec === null) throw new Error('the sample cluster has no deployment');
    return spec as Record<string, unknown>;
  };
  web().replicas = 1;
  await createConnection(
    server.pool,
    server.running.context.config.secretKey,
    { name: 'run-kube', type: 'kubernetes', url: api.url, password: api.token, insecure_tls: true },
    null,
  );
  const types: Record<string, number> = { 'Kubernetes::Cluster': 1 };
  for (const [plural, kind] of Object.entries(KUBE_KINDS)) types[`Kubernetes::${kind}`] = api.objects[plural]?.length ?? 0;
  return {
    spec: { kubernetes: [{ clusterName: 'prod', kubeconfig: 'connection://default/run-kube' }] },
    types,
    changing: { type: 'Kubernetes::Deployment', name: 'web', pointer: '/spec/replicas' },
    removed: { type: 'Kubernetes::ConfigMap', name: 'web-settings' },
    setReplicas: async (replicas) => {
      web().replicas = replicas;
    },
    remove: async () => {
      api.objects.configmaps = [];
    },
    breakSource: async () => {
      api.failures.set('pods', 403);
    },
    broken: { status: 'WARNING', error: /^kubernetes\[0\] pods: HTTP 403: pods is forbidden/ },
    close: () => api.close(),
  };
}

const PEERS: Array<{ kind: string; start(context: PeerContext): Promise<Peer> }> = [
  { kind: 'file', start: filePeer },
  { kind: 'http', start: httpPeer },
  { kind: 'sql', start: sqlPeer },
  { kind: 'kubernetes', start: kubernetesPeer },
];

describe('each source kind through Run Now, the scheduler, the ingest and job history', () => {
  let server: TestServer;
  let root: string;
  let admin: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-sources-run-')));
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    server = await startTestServer({ workers: true });
    admin = await server.cookieFor('admin');
    // The sql peer listens on 127.0.0.1.
    await allowLocalDatabases(server);
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_SCRAPE_ROOTS', previousRoots);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  describe.each(PEERS)('the $kind source', ({ kind, start }) => {
    let peer: Peer;
    let scraperId = '';
    let runs = 0;
    let firstChange: ChangeRow | undefined;

    beforeAll(async () => {
      peer = await start({ server, root });
    });
    afterAll(async () => {
      await peer.close();
    });

    /** Waits until the scraper has `runs` finished job_history rows and returns the latest. */
    async function finishedRun(): Promise<JobRow> {
      runs += 1;
      const deadline = Date.now() + JOB_TIMEOUT_MS;
      for (;;) {
        const rows = await server.pool.query<JobRow & { time_end: string | null }>(
          `select status, success_count, error_count, details, time_end from job_history where resource_id = $1 order by created_at desc`,
          [scraperId],
        );
        const latest = rows.rows[0];
        if (rows.rows.length === runs && latest?.time_end != null) return latest;
        if (Date.now() > deadline) throw new Error(`run ${runs} of the ${kind} scraper did not finish: ${JSON.stringify(rows.rows)}`);
        await sleep(POLL_MS);
      }
    }

    async function runNow(): Promise<JobRow> {
      const queued = await server.call('POST', `/api/config/scrapers/${scraperId}/run`, admin);
      expect(queued.status, queued.text).toBe(202);
      return finishedRun();
    }

    async function liveTypes(): Promise<Record<string, number>> {
      const rows = await server.pool.query<{ type: string; n: number }>(
        'select type, count(*)::integer as n from configs where scraper_id = $1 and deleted_at is null group by type',
        [scraperId],
      );
      return Object.fromEntries(rows.rows.map((row) => [row.type, row.n]));
    }

    async function itemId(item: ItemRef): Promise<string> {
      const row = await server.pool.query<{ id: string }>('select id from configs where scraper_id = $1 and type = $2 and name = $3', [scraperId, item.type, item.name]);
      const id = row.rows[0]?.id;
      if (id === undefined) throw new Error(`no ${item.type} ${item.name}`);
      return id;
    }

    async function diffChanges(): Promise<ChangeRow[]> {
      const rows = await server.pool.query<ChangeRow>(
        `select id, summary, diff, patches::jsonb as patches, count, first_observed::text, created_at::text from config_changes
          where config_id = $1 and change_type = 'diff' order by first_observed`,
        [await itemId(peer.changing)],
      );
      return rows.rows;
    }

    async function deleteChanges(): Promise<number> {
      const rows = await server.pool.query<{ n: number }>(
        `select count(*)::integer as n from config_changes ch join config_items c on c.id = ch.config_id
          where c.scraper_id = $1 and ch.change_type = 'DELETE'`,
        [scraperId],
      );
      return rows.rows[0]?.n ?? -1;
    }

    const total = (summary: ScrapeSummary | null | undefined, field: 'added' | 'updated' | 'deleted'): number =>
      Object.values(summary?.types ?? {}).reduce((sum, counts) => sum + counts[field], 0);

    it('stores the items of the first run under their types with a CREATE change each, and records SUCCESS with the added counts', async () => {
      const saved = await server.call('POST', '/api/db/config_scrapers', admin, { name: `sources-run-${kind}`, spec: peer.spec }, { prefer: 'return=representation' });
      expect(saved.status, saved.text).toBe(201);
      scraperId = (saved.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
      // A scraper saved in a worker process runs at once, without Run Now.
      const job = await finishedRun();

      expect(job.status, JSON.stringify(job.details.errors)).toBe('SUCCESS');
      expect(await liveTypes()).toEqual(peer.types);
      const itemCount = Object.values(peer.types).reduce((sum, n) => sum + n, 0);
      expect(job).toMatchObject({ success_count: itemCount, error_count: 0 });
      for (const [type, n] of Object.entries(peer.types)) expect(job.details.scrape_summary?.types[type]?.added, type).toBe(n);
      const creates = await server.pool.query<{ n: number }>(
        `select count(*)::integer as n from config_changes ch join config_items c on c.id = ch.config_id
          where c.scraper_id = $1 and ch.change_type = 'CREATE'`,
        [scraperId],
      );
      expect(creates.rows[0]?.n).toBe(itemCount);
    });

    it('records a changed value as one diff change with its diff, patches and summary, and job history counts it as updated', async () => {
      await peer.setReplicas(2);
      const job = await runNow();

      expect(job.status, JSON.stringify(job.details.errors)).toBe('SUCCESS');
      expect(job.details.scrape_summary?.types[peer.changing.type]?.updated).toBe(1);
      expect(total(job.details.scrape_summary, 'updated')).toBe(1);
      expect(total(job.details.scrape_summary, 'added')).toBe(0);
      const changes = await diffChanges();
      expect(changes).toHaveLength(1);
      const [change] = changes;
      expect(change?.count).toBe(1);
      expect(change?.summary).toBe(peer.changing.pointer.slice(1).replace(/\//g, '.'));
      expect(change?.patches).toEqual([{ op: 'replace', path: peer.changing.pointer, value: 2 }]);
      expect(change?.diff).toMatch(/^-.*replicas"?: 1,?$/m);
      expect(change?.diff).toMatch(/^\+.*replicas"?: 2,?$/m);
      firstChange = change;
    });

    it('folds the same change seen again into its first row, counting it twice and keeping first_observed', async () => {
      await peer.setReplicas(1);
      expect((await runNow()).details.scrape_summary?.types[peer.changing.type]?.updated).toBe(1);
      await peer.setReplicas(2);
      expect((await runNow()).details.scrape_summary?.types[peer.changing.type]?.updated).toBe(1);

      const changes = await diffChanges();
      expect(changes).toHaveLength(2);
      const folded = changes.find((change) => change.id === firstChange?.id);
      expect(folded).toMatchObject({ count: 2, first_observed: firstChange?.first_observed });
      expect(Date.parse(folded?.created_at ?? '')).toBeGreaterThan(Date.parse(firstChange?.created_at ?? ''));
      const back = changes.find((change) => change.id !== firstChange?.id);
      expect(back).toMatchObject({ count: 1, patches: [{ op: 'replace', path: peer.changing.pointer, value: 1 }] });
    });

    it('soft-deletes an item the source no longer lists, with a DELETE change, and job history counts it as deleted', async () => {
      await peer.remove();
      const job = await runNow();

      expect(job.status, JSON.stringify(job.details.errors)).toBe('SUCCESS');
      expect(job.details.scrape_summary?.types[peer.removed.type]?.deleted).toBe(1);
      expect(total(job.details.scrape_summary, 'deleted')).toBe(1);
      const removed = await server.pool.query<{ deleted: boolean; delete_reason: string | null }>(
        'select deleted_at is not null as deleted, delete_reason from configs where id = $1',
        [await itemId(peer.removed)],
      );
      expect(removed.rows[0]).toEqual({ deleted: true, delete_reason: 'NotFound' });
      const changes = await server.pool.query<{ change_type: string }>(`select change_type from config_changes where config_id = $1 order by created_at`, [
        await itemId(peer.removed),
      ]);
      expect(changes.rows.map((row) => row.change_type)).toEqual(expect.arrayContaining(['CREATE', 'DELETE']));
      expect(await deleteChanges()).toBe(1);
    });

    it('records a broken source in job history with its error text and deletes nothing it stored', async () => {
      const before = await liveTypes();
      await peer.breakSource();
      const job = await runNow();

      expect(job.status).toBe(peer.broken.status);
      expect(job.error_count).toBeGreaterThan(0);
      expect(job.details.errors.some((error) => peer.broken.error.test(error)), JSON.stringify(job.details.errors)).toBe(true);
      expect(total(job.details.scrape_summary, 'deleted')).toBe(0);
      expect(await liveTypes()).toEqual(before);
      expect(await deleteChanges()).toBe(1);
    });
  });
});
