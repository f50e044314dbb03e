import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogChange, CatalogSummaryRow } from '@opsdeck/shared';
import { startTestServer, type JsonReply, type TestServer } from './harness';

interface ItemSpec {
  name: string;
  type: string;
  tags?: Record<string, string>;
  labels?: Record<string, string>;
  health?: string | null;
  status?: string | null;
  deleted?: boolean;
  parent?: string;
  cost?: [number, number, number];
}

interface ChangeSpec {
  config: string;
  changeType: string;
  hoursAgo: number;
  severity?: string | null;
  summary?: string;
  source?: string;
  createdBy?: string | null;
  externalCreatedBy?: string;
  fingerprint?: string;
}

interface ChangesReply {
  changes: CatalogChange[];
  total: number;
  summary: { change_types: Record<string, number>; severities: Record<string, number> };
  page: number;
  page_size: number;
}

const NO_CACHE = { 'cache-control': 'no-cache' };

describe('catalog routes', () => {
  let server: TestServer;
  let viewer: string;
  let adminId: string;
  // Every fixture row carries this tag, so the suite reads only its own rows whatever the demo estate holds.
  const suite = `ca-${randomUUID().slice(0, 8)}`;
  const ids = new Map<string, string>();

  // Summaries computed now: these tests write between reads and compare with the database (kept answers have their own test).
  const call = (url: string, body: unknown, cookie = viewer): Promise<JsonReply> => server.call('POST', url, cookie, body, NO_CACHE);
  const id = (name: string): string => {
    const value = ids.get(name);
    if (value === undefined) throw new Error(`no fixture item ${name}`);
    return value;
  };

  async function addItem(spec: ItemSpec): Promise<void> {
    const [d1, d7, d30] = spec.cost ?? [null, null, null];
    const result = await server.pool.query<{ id: string }>(
      `insert into config_items (type, config_class, name, tags, labels, health, status, parent_id, deleted_at,
                                 cost_total_1d, cost_total_7d, cost_total_30d)
       values ($1, split_part($1, '::', 1), $2, $3::jsonb, $4::jsonb, $5, $6, $7, case when $8 then now() end, $9, $10, $11)
       returning id`,
      [spec.type, spec.name, JSON.stringify({ suite, ...spec.tags }), JSON.stringify(spec.labels ?? {}), spec.health ?? null, spec.status ?? null,
        spec.parent === undefined ? null : id(spec.parent), spec.deleted === true, d1, d7, d30],
    );
    ids.set(spec.name, result.rows[0]?.id ?? '');
  }

  async function addChange(spec: ChangeSpec): Promise<void> {
    await server.pool.query(
      `insert into config_changes (config_id, change_type, severity, summary, source, created_by, external_created_by, fingerprint,
                                   created_at, first_observed)
       values ($1, $2, $3, $4, $5, $6, $7, $8, now() - make_interval(hours => $9), now() - make_interval(hours => $9))`,
      [id(spec.config), spec.changeType, spec.severity ?? null, spec.summary ?? null, spec.source ?? null, spec.createdBy ?? null,
        spec.externalCreatedBy ?? null, spec.fingerprint ?? null, spec.hoursAgo],
    );
  }

  async function link(from: string, to: string): Promise<void> {
    await server.pool.query(`insert into config_relationships (config_id, related_id, relation) values ($1, $2, 'uses')`, [id(from), id(to)]);
  }

  async function changes(body: Record<string, unknown>): Promise<ChangesReply> {
    const reply = await call('/api/catalog/changes', { tags: `suite=${suite}`, ...body });
    expect(reply.status, reply.text).toBe(200);
    return reply.json as unknown as ChangesReply;
  }

  async function summary(body: Record<string, unknown>): Promise<CatalogSummaryRow[]> {
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    const tags = (filter.tags ?? {}) as Record<string, string>;
    const reply = await call('/api/catalog/summary', { ...body, filter: { ...filter, tags: { suite, ...tags } } });
    expect(reply.status, reply.text).toBe(200);
    return reply.json as unknown as CatalogSummaryRow[];
  }

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    const admin = await server.pool.query<{ id: string }>(`select id from people where email = 'admin@opsdeck.local'`);
    adminId = admin.rows[0]?.id ?? '';

    await addItem({ name: 'web-1', type: 'Kubernetes::Pod', tags: { cluster: 'prod', namespace: 'web' }, labels: { app: 'web' }, health: 'healthy', status: 'Running', cost: [1, 7, 30] });
    await addItem({ name: 'db-1', type: 'Kubernetes::Pod', tags: { cluster: 'prod', namespace: 'db' }, labels: { app: 'db' }, health: 'unhealthy', status: 'CrashLoop', cost: [2, 14, 60] });
    await addItem({ name: 'web', type: 'Kubernetes::Deployment', tags: { cluster: 'dev' }, labels: { app: 'web' }, health: 'warning', status: 'Running' });
    await addItem({ name: 'vm-1', type: 'AWS::EC2::Instance', tags: { cluster: 'prod' }, health: null, cost: [0.5, 3.5, 15] });
    await addItem({ name: 'gone-1', type: 'Kubernetes::Pod', tags: { cluster: 'dev', namespace: 'web' }, health: 'healthy', deleted: true, cost: [100, 100, 100] });

    // A small graph: ns → (child) deploy → (child) pod; deploy → svc → ns closes a cycle; upstream-only links into ns.
    await addItem({ name: 'ns', type: 'Kubernetes::Namespace', tags: { cluster: 'graph' } });
    await addItem({ name: 'deploy', type: 'Kubernetes::Deployment', tags: { cluster: 'graph' }, parent: 'ns' });
    await addItem({ name: 'pod', type: 'Kubernetes::Pod', tags: { cluster: 'graph' }, parent: 'deploy' });
    await addItem({ name: 'svc', type: 'Kubernetes::Service', tags: { cluster: 'graph' } });
    await addItem({ name: 'ingress', type: 'Kubernetes::Ingress', tags: { cluster: 'graph' } });
    await link('deploy', 'svc');
    await link('svc', 'ns');
    await link('ingress', 'ns');

    await addChange({ config: 'web-1', changeType: 'diff', hoursAgo: 1, severity: 'info', summary: 'image bumped to 1.2', source: 'kubernetes', createdBy: adminId });
    await addChange({ config: 'web-1', changeType: 'Pulled', hoursAgo: 3, severity: 'low', summary: 'pulled image', source: 'kubernetes/event' });
    await addChange({ config: 'db-1', changeType: 'BackOff', hoursAgo: 5, severity: 'high', summary: 'Back-off restarting 100% failed', source: 'kubernetes/event', externalCreatedBy: 'kubelet' });
    await addChange({ config: 'db-1', changeType: 'diff', hoursAgo: 30, severity: 'medium', summary: 'limits changed', source: 'kubernetes' });
    await addChange({ config: 'web', changeType: 'diff', hoursAgo: 7, summary: 'replicas 2 to 3', source: 'kubernetes' });
    await addChange({ config: 'vm-1', changeType: 'diff', hoursAgo: 24 * 40, severity: 'info', summary: 'old change', source: 'aws' });
    await addChange({ config: 'gone-1', changeType: 'Deleted', hoursAgo: 2, severity: 'warning', summary: 'pod removed', source: 'kubernetes' });
    for (const [index, name] of ['ns', 'deploy', 'pod', 'svc', 'ingress'].entries()) {
      await addChange({ config: name, changeType: `graph-${name}`, hoursAgo: 10 + index, source: 'graph' });
    }

    await server.pool.query(
      `insert into config_analysis (config_id, analyzer, analysis_type, severity, status, last_observed) values
         ($1, 'privileged', 'security', 'high', 'open', now()),
         ($2, 'cve', 'security', 'critical', 'open', now()),
         ($2, 'oversized', 'cost', 'medium', 'open', now() - interval '45 days'),
         ($2, 'flaky', 'reliability', 'low', 'resolved', now())`,
      [id('web-1'), id('db-1')],
    );
  });
  afterAll(async () => {
    await server.close();
  });

  describe('POST /api/catalog/summary', () => {
    it('groups by config_class and type by default with the counts the database holds', async () => {
      const rows = await summary({});
      const expected = await server.pool.query<{ config_class: string; type: string; count: number }>(
        `select config_class, type, count(*)::integer as count from config_items
          where tags @> $1::jsonb and deleted_at is null group by config_class, type order by type`,
        [JSON.stringify({ suite })],
      );
      expect(rows.map((row) => ({ config_class: row.config_class, type: row.type, count: row.count }))).toEqual(expected.rows);
    });

    it('counts health, changes in the window, open insights in the window and sums costs per group', async () => {
      const rows = await summary({ filter: { configType: 'Kubernetes::Pod' } });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        config_class: 'Kubernetes',
        type: 'Kubernetes::Pod',
        count: 3,
        deleted: 0,
        health: { healthy: 1, unhealthy: 1, warning: 0, unknown: 1 },
        // web-1: 2, db-1: 2, pod: 1 (the graph pod); all inside 30 days.
        changes: 5,
        analysis: { security: 2 },
        analysis_by_severity: { high: 1, critical: 1 },
        cost: 90,
        cost_total_1d: 3,
        cost_total_7d: 21,
        cost_total_30d: 90,
      });
      const narrow = await summary({ filter: { configType: 'Kubernetes::Pod' }, changes: { since: '4h' }, analysis: { since: '60d' }, cost: { since: '7d' } });
      expect(narrow[0]).toMatchObject({ changes: 2, analysis: { security: 2, cost: 1 }, cost: 21 });
    });

    it('groups by tag values with the __tag suffix and by labels with __label, items without the key in a null group', async () => {
      const rows = await summary({ groupBy: ['cluster__tag', 'namespace__tag'] });
      expect(rows.map((row) => [row.tags.cluster, row.tags.namespace, row.count])).toEqual([
        ['dev', null, 1],
        ['graph', null, 5],
        ['prod', 'db', 1],
        ['prod', 'web', 1],
        ['prod', null, 1],
      ]);
      const labels = await summary({ groupBy: ['app__label'], sortBy: 'count', sortOrder: 'desc' });
      expect(labels.map((row) => [row.labels.app, row.count])).toEqual([
        [null, 6],
        ['web', 2],
        ['db', 1],
      ]);
    });

    it('filters by labels, tags, search, health and status, with ! excluding', async () => {
      const counts = async (filter: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<number> =>
        (await summary({ groupBy: ['config_class'], filter, ...extra })).reduce((sum, row) => sum + row.count, 0);
      expect(await counts({ labels: { app: 'web' } })).toBe(2);
      expect(await counts({ tags: { cluster: 'prod' } })).toBe(3);
      expect(await counts({ search: 'WEB' })).toBe(2);
      expect(await counts({}, { health: 'unhealthy,warning' })).toBe(2);
      expect(await counts({}, { health: 'unknown' })).toBe(6);
      expect(await counts({}, { status: '!Running' })).toBe(7);
      expect(await counts({ configType: 'Kubernetes::Pod,Kubernetes::Deployment' }, { status: 'Running' })).toBe(2);
    });

    it('leaves deleted items out unless deleted is true, and then counts them apart', async () => {
      const hidden = await summary({ groupBy: ['type'], filter: { configType: 'Kubernetes::Pod' } });
      expect(hidden[0]?.count).toBe(3);
      const shown = await summary({ groupBy: ['type'], filter: { configType: 'Kubernetes::Pod' }, deleted: true });
      expect(shown[0]).toMatchObject({ type: 'Kubernetes::Pod', count: 4, deleted: 1, cost_total_1d: 103 });
    });

    it('sorts by a measure in either direction, groups breaking ties', async () => {
      const rows = await summary({ groupBy: ['type'], sortBy: 'count', sortOrder: 'desc' });
      expect(rows.map((row) => row.count)).toEqual([...rows.map((row) => row.count)].sort((a, b) => b - a));
      expect(rows[0]).toMatchObject({ type: 'Kubernetes::Pod', count: 3 });
      const byType = await summary({ groupBy: ['config_class', 'type'], sortOrder: 'desc' });
      expect(byType.map((row) => row.type)).toEqual([...byType.map((row) => row.type ?? '')].sort().reverse());
    });

    it('refuses an unknown grouping, a grouping named twice and an unknown sort with a coded 400', async () => {
      for (const body of [{ groupBy: ['name'] }, { groupBy: ['type; drop table config_items'] }, { groupBy: ['__tag'] }, { groupBy: ['type', 'type'] }, { sortBy: 'name' }, { groupBy: [] }]) {
        const reply = await call('/api/catalog/summary', body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.json.code, JSON.stringify(body)).toBe('OD_VALIDATION');
      }
      const reply = await call('/api/catalog/summary', { groupBy: ['owner'] });
      expect(String(reply.json.details)).toContain("unknown grouping 'owner'");
    });

    it('counts exactly the changes a raw count finds in each window, after folded repeats, deletes and moves too', async () => {
      // A suite of its own, so the changes written and moved here stay out of the other tests' counts.
      const own = `${suite}-counts`;
      const item = async (name: string, type: string): Promise<string> => {
        const result = await server.pool.query<{ id: string }>(
          `insert into config_items (type, config_class, name, tags) values ($1, split_part($1, '::', 1), $2, $3::jsonb) returning id`,
          [type, name, JSON.stringify({ suite: own })],
        );
        return result.rows[0]?.id ?? '';
      };
      const pod = await item('count-pod', 'Kubernetes::Pod');
      const vm = await item('count-vm', 'AWS::EC2::Instance');
      const write = async (config: string, hoursAgo: number, fingerprint: string | null = null): Promise<void> => {
        await server.pool.query(
          `insert into config_changes (config_id, change_type, fingerprint, created_at) values ($1, 'diff', $2, now() - make_interval(hours => $3))`,
          [config, fingerprint, hoursAgo],
        );
      };
      for (const hoursAgo of [1, 2, 20, 50, 24 * 29, 24 * 31]) await write(pod, hoursAgo);
      for (const hoursAgo of [3, 24 * 6]) await write(vm, hoursAgo);
      await write(vm, 24 * 10, 'repeat');

      const compare = async (): Promise<Record<string, Record<string, number>>> => {
        const seen: Record<string, Record<string, number>> = {};
        for (const since of ['4h', '1d', '7d', '30d', '60d']) {
          const reply = await call('/api/catalog/summary', { groupBy: ['type'], filter: { tags: { suite: own } }, changes: { since } });
          expect(reply.status, reply.text).toBe(200);
          const raw = await server.pool.query<{ type: string; n: number }>(
            `select c.type, count(ch.id)::integer as n from config_items c
               left join config_changes ch on ch.config_id = c.id and ch.created_at > now() - $2::interval
              where c.tags @> $1::jsonb and c.deleted_at is null group by c.type order by c.type`,
            [JSON.stringify({ suite: own }), since.replace('h', ' hours').replace('d', ' days')],
          );
          const answered = (reply.json as unknown as CatalogSummaryRow[]).map((row) => ({ type: row.type, n: row.changes }));
          expect(answered, since).toEqual(raw.rows);
          seen[since] = Object.fromEntries(answered.map((row) => [row.type ?? '', row.n]));
        }
        // Without a filter the count takes another plan, a single pass over the window: the whole database must agree.
        const all = await call('/api/catalog/summary', { groupBy: ['type'] });
        const raw = await server.pool.query<{ type: string; n: number }>(
          `select c.type, count(ch.id)::integer as n from config_items c
             left join config_changes ch on ch.config_id = c.id and ch.created_at > now() - interval '30 days'
            where c.deleted_at is null group by c.type order by c.type`,
        );
        expect((all.json as unknown as CatalogSummaryRow[]).map((row) => ({ type: row.type, n: row.changes }))).toEqual(raw.rows);
        return seen;
      };

      expect((await compare())['30d']).toEqual({ 'AWS::EC2::Instance': 3, 'Kubernetes::Pod': 5 });
      // The repeat folds into the 10-day-old row and moves it to now: the row counts once, now in every window.
      await write(vm, 0, 'repeat');
      expect((await compare())['4h']).toEqual({ 'AWS::EC2::Instance': 2, 'Kubernetes::Pod': 2 });
      await server.pool.query(`delete from config_changes where config_id = $1 and created_at > now() - interval '90 minutes'`, [pod]);
      await server.pool.query(`update config_changes set config_id = $2 where config_id = $1 and created_at < now() - interval '40 hours'`, [pod, vm]);
      expect((await compare())['60d']).toEqual({ 'AWS::EC2::Instance': 6, 'Kubernetes::Pod': 2 });
    });

    it('answers a write to items, changes or insights at once to a no-cache request, though the same request was answered a moment before', async () => {
      const own = `${suite}-fresh`;
      const body = { groupBy: ['type'], filter: { tags: { suite: own } } };
      const rows = async (): Promise<CatalogSummaryRow[]> => {
        const reply = await call('/api/catalog/summary', body);
        expect(reply.status, reply.text).toBe(200);
        return reply.json as unknown as CatalogSummaryRow[];
      };
      const inserted = await server.pool.query<{ id: string }>(
        `insert into config_items (type, config_class, name, tags, health) values ('Kubernetes::Pod', 'Kubernetes', 'fresh-pod', $1::jsonb, 'healthy')
         returning id`,
        [JSON.stringify({ suite: own })],
      );
      const pod = inserted.rows[0]?.id ?? '';
      expect((await rows()).map((row) => [row.count, row.changes, row.health.healthy])).toEqual([[1, 0, 1]]);
      expect((await rows()).map((row) => row.count)).toEqual([1]);

      await server.pool.query(`insert into config_changes (config_id, change_type) values ($1, 'diff')`, [pod]);
      expect((await rows())[0]?.changes).toBe(1);
      await server.pool.query(
        `insert into config_analysis (config_id, analyzer, analysis_type, severity, last_observed) values ($1, 'fresh', 'security', 'high', now())`,
        [pod],
      );
      expect((await rows())[0]?.analysis).toEqual({ security: 1 });
      await server.pool.query(`update config_items set health = 'unhealthy' where id = $1`, [pod]);
      expect((await rows())[0]?.health).toMatchObject({ healthy: 0, unhealthy: 1 });
      await server.pool.query(`update config_items set deleted_at = now() where id = $1`, [pod]);
      expect(await rows()).toEqual([]);
    });

    it('moves the catalog write version when a writing transaction commits, not only when it writes', async () => {
      const version = async (client: { query: typeof server.pool.query }): Promise<bigint> =>
        BigInt((await client.query<{ last_value: string }>('select last_value from catalog_write_version')).rows[0]?.last_value ?? '0');
      const client = await server.pool.connect();
      try {
        await client.query('begin');
        await client.query(`insert into config_items (type, config_class, name, tags) values ('Kubernetes::Pod', 'Kubernetes', 'tx-pod', $1::jsonb)`, [
          JSON.stringify({ suite: `${suite}-tx` }),
        ]);
        const written = await version(client);
        await client.query('commit');
        expect(await version(client)).toBeGreaterThan(written);
      } finally {
        client.release();
      }
    });

    it('answers each filter body with its own rows and identical concurrent requests with the same rows', async () => {
      const [pods, deployments, podsAgain] = await Promise.all([
        summary({ groupBy: ['type'], filter: { configType: 'Kubernetes::Pod' } }),
        summary({ groupBy: ['type'], filter: { configType: 'Kubernetes::Deployment' } }),
        summary({ groupBy: ['type'], filter: { configType: 'Kubernetes::Pod' } }),
      ]);
      expect(pods.map((row) => row.type)).toEqual(['Kubernetes::Pod']);
      expect(deployments.map((row) => row.type)).toEqual(['Kubernetes::Deployment']);
      expect(podsAgain).toEqual(pods);
      // The same filter in another key order is the same request.
      const reordered = await call('/api/catalog/summary', { filter: { tags: { suite }, configType: 'Kubernetes::Pod' }, groupBy: ['type'] });
      expect(reordered.json).toEqual(pods);
    });

    it('serves the kept answer right after a write, the new counts to the next reader, and new counts at once to a no-cache request', async () => {
      const body = { groupBy: ['type'], filter: { tags: { suite: `${suite}-kept` } } };
      const add = (name: string) =>
        server.pool.query(`insert into config_items (type, config_class, name, tags) values ('Test::Kept', 'Test', $1, $2::jsonb)`, [
          name,
          JSON.stringify({ suite: `${suite}-kept` }),
        ]);
      const count = async (headers: Record<string, string> = {}): Promise<number | undefined> => {
        const reply = await server.call('POST', '/api/catalog/summary', viewer, body, headers);
        expect(reply.status, reply.text).toBe(200);
        return (reply.json as unknown as CatalogSummaryRow[])[0]?.count;
      };
      await add('kept-1');
      expect(await count()).toBe(1);
      await add('kept-2');
      expect(await count()).toBe(1);
      await expect.poll(() => count(), { timeout: 5_000 }).toBe(2);
      await add('kept-3');
      expect(await count(NO_CACHE)).toBe(3);
    });

    it('answers a viewer and refuses an anonymous caller with 401', async () => {
      expect((await call('/api/catalog/summary', {})).status).toBe(200);
      const anonymous = await call('/api/catalog/summary', {}, '');
      expect(anonymous.status).toBe(401);
      expect(anonymous.json.code).toBe('OD401');
    });
  });

  describe('POST /api/catalog/changes', () => {
    it('lists the last 2 days by default, newest first, with the item name, type and tags', async () => {
      const reply = await changes({});
      expect(reply.page).toBe(1);
      expect(reply.page_size).toBe(200);
      expect(reply.changes.map((change) => change.summary)).toEqual([
        'image bumped to 1.2',
        'pulled image',
        'Back-off restarting 100% failed',
        'replicas 2 to 3',
        null,
        null,
        null,
        null,
        null,
        'limits changed',
      ]);
      expect(reply.total).toBe(10);
      expect(reply.changes[0]).toMatchObject({ name: 'web-1', type: 'Kubernetes::Pod', config_class: 'Kubernetes', tags: { suite, cluster: 'prod' }, count: 1, config_deleted_at: null, created_by: adminId });
      expect(reply.summary.change_types).toMatchObject({ diff: 3, Pulled: 1, BackOff: 1, 'graph-ns': 1 });
      expect(reply.summary.severities).toEqual({ info: 1, low: 1, high: 1, medium: 1, none: 6 });
    });

    it('takes from and to as date expressions or ISO times', async () => {
      expect((await changes({ from: 'now-60d' })).total).toBe(11);
      expect((await changes({ from: 'now-6h', to: 'now-2h' })).changes.map((change) => change.change_type)).toEqual(['Pulled', 'BackOff']);
      const iso = new Date(Date.now() - 2 * 3600_000).toISOString();
      expect((await changes({ from: iso })).changes.map((change) => change.change_type)).toEqual(['diff']);
    });

    it('pages with page and page_size and sorts by any listed column with - for descending', async () => {
      const first = await changes({ page_size: 3, sort_by: 'created_at' });
      const second = await changes({ page_size: 3, page: 2, sort_by: 'created_at' });
      expect(first.total).toBe(10);
      expect(first.changes.map((change) => change.summary)).toEqual(['limits changed', null, null]);
      expect(second.changes).toHaveLength(3);
      expect(new Set([...first.changes, ...second.changes].map((change) => change.id)).size).toBe(6);
      const beyond = await changes({ page: 5, page_size: 3 });
      expect(beyond.changes).toEqual([]);
      expect(beyond.total).toBe(10);
      const byName = await changes({ sort_by: '-name' });
      const names = byName.changes.map((change) => change.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    });

    it('counts every page of a request alike, and counts anew on the next page after a change is written or its item deleted', async () => {
      const probe = { change_type: 'CacheProbe', page_size: 1 };
      expect((await changes(probe)).total).toBe(0);
      await addChange({ config: 'web-1', changeType: 'CacheProbe', hoursAgo: 1 });
      await addChange({ config: 'db-1', changeType: 'CacheProbe', hoursAgo: 2 });
      expect((await changes(probe)).total).toBe(2);
      const second = await changes({ ...probe, page: 2, sort_by: 'created_at' });
      expect(second.total).toBe(2);
      expect(second.changes.map((change) => change.name)).toEqual(['web-1']);

      await addChange({ config: 'web-1', changeType: 'CacheProbe', hoursAgo: 3 });
      const written = await changes({ ...probe, page: 2 });
      expect(written.total).toBe(3);
      expect(written.summary.change_types).toEqual({ CacheProbe: 3 });

      await server.pool.query('update config_items set deleted_at = now() where id = $1', [id('db-1')]);
      try {
        expect((await changes({ ...probe, page: 3 })).total).toBe(2);
      } finally {
        await server.pool.query('update config_items set deleted_at = null where id = $1', [id('db-1')]);
        await server.pool.query(`delete from config_changes where change_type = 'CacheProbe'`);
      }
      expect((await changes(probe)).total).toBe(0);
    });

    it('serves the kept counts right after a write beside a page read now, new counts to the next reader, and at once to a no-cache request', async () => {
      const body = { tags: `suite=${suite}`, change_type: 'KeptProbe', page_size: 10 };
      const read = async (headers: Record<string, string> = {}): Promise<ChangesReply & { age: string | undefined }> => {
        const reply = await server.call('POST', '/api/catalog/changes', viewer, body, headers);
        expect(reply.status, reply.text).toBe(200);
        return { ...(reply.json as unknown as ChangesReply), age: reply.headers.get('age') ?? undefined };
      };
      try {
        await addChange({ config: 'web-1', changeType: 'KeptProbe', hoursAgo: 1 });
        const first = await read();
        expect(first.total).toBe(1);
        expect(first.age).toBe('0');
        await addChange({ config: 'db-1', changeType: 'KeptProbe', hoursAgo: 2 });
        const kept = await read();
        expect(kept.total).toBe(1);
        expect(kept.summary.change_types).toEqual({ KeptProbe: 1 });
        expect(kept.changes.map((change) => change.name)).toEqual(['web-1', 'db-1']);
        await expect.poll(async () => (await read()).total, { timeout: 5_000 }).toBe(2);
        await addChange({ config: 'web-1', changeType: 'KeptProbe', hoursAgo: 3 });
        expect((await read(NO_CACHE)).total).toBe(3);
      } finally {
        await server.pool.query(`delete from config_changes where change_type = 'KeptProbe'`);
      }
    });

    it('filters by change type, severity, config type, source, summary, creators and tags', async () => {
      const types = async (body: Record<string, unknown>): Promise<string[]> =>
        (await changes({ ...body, sort_by: 'created_at' })).changes.map((change) => `${change.name}:${change.change_type}`);
      expect(await types({ change_type: 'diff' })).toEqual(['db-1:diff', 'web:diff', 'web-1:diff']);
      expect(await types({ change_type: '!diff,!graph-ns,!graph-deploy,!graph-pod,!graph-svc,!graph-ingress' })).toEqual(['db-1:BackOff', 'web-1:Pulled']);
      expect(await types({ severity: 'high,medium' })).toEqual(['db-1:diff', 'db-1:BackOff']);
      expect(await types({ config_type: 'Kubernetes::Deployment' })).toEqual(['deploy:graph-deploy', 'web:diff']);
      expect(await types({ source: 'kubernetes/event' })).toEqual(['db-1:BackOff', 'web-1:Pulled']);
      expect(await types({ summary: '100%' })).toEqual(['db-1:BackOff']);
      expect(await types({ created_by: adminId })).toEqual(['web-1:diff']);
      expect(await types({ external_created_by: 'kubelet' })).toEqual(['db-1:BackOff']);
      expect(await types({ tags: `suite=${suite},cluster in (prod),namespace!=web` })).toEqual(['db-1:diff', 'db-1:BackOff']);
      expect(await types({ tags: `suite=${suite},cluster notin (prod,graph)` })).toEqual(['web:diff']);
      expect(await types({ tags: `suite=${suite},cluster=prod,cluster=dev` })).toEqual([]);
    });

    it('shows changes of deleted items only with include_deleted_configs', async () => {
      expect((await changes({ change_type: 'Deleted' })).total).toBe(0);
      const shown = await changes({ change_type: 'Deleted', include_deleted_configs: true });
      expect(shown.changes.map((change) => change.name)).toEqual(['gone-1']);
      expect(shown.changes[0]?.config_deleted_at).not.toBeNull();
    });

    it('narrows to one item, and with recursive walks downstream, upstream or both through a cycle', async () => {
      const names = async (body: Record<string, unknown>): Promise<string[]> =>
        (await changes({ id: id('ns'), ...body })).changes.map((change) => change.name).sort();
      expect(await names({})).toEqual(['ns']);
      expect(await names({ recursive: true, type_filter: 'downstream' })).toEqual(['deploy', 'ns', 'pod', 'svc']);
      expect(await names({ recursive: true, type_filter: 'upstream' })).toEqual(['deploy', 'ingress', 'ns', 'svc']);
      expect(await names({ recursive: true })).toEqual(['deploy', 'ingress', 'ns', 'pod', 'svc']);
      expect(await names({ recursive: true, type_filter: 'downstream', depth: 1 })).toEqual(['deploy', 'ns']);
    });

    it('answers 404 for an item that does not exist', async () => {
      const reply = await call('/api/catalog/changes', { id: randomUUID() });
      expect(reply.status).toBe(404);
      expect(reply.json.code).toBe('OD404');
    });

    it('folds a change whose fingerprint repeats into one row with count, first_observed and the latest created_at', async () => {
      await addChange({ config: 'vm-1', changeType: 'Restarted', hoursAgo: 9, fingerprint: 'restart-1', summary: 'restarted', source: 'fold' });
      await addChange({ config: 'vm-1', changeType: 'Restarted', hoursAgo: 4, fingerprint: 'restart-1', summary: 'restarted again', source: 'fold' });
      await addChange({ config: 'vm-1', changeType: 'Restarted', hoursAgo: 6, fingerprint: 'restart-1', source: 'fold' });
      await addChange({ config: 'web-1', changeType: 'Restarted', hoursAgo: 4, fingerprint: 'restart-1', source: 'fold' });

      const stored = await server.pool.query<{ n: number; count: number; first_hours: number; last_hours: number; summary: string }>(
        `select count(*) over ()::integer as n, count, round(extract(epoch from now() - first_observed) / 3600)::integer as first_hours,
                round(extract(epoch from now() - created_at) / 3600)::integer as last_hours, summary
           from config_changes where config_id = $1 and fingerprint = 'restart-1'`,
        [id('vm-1')],
      );
      expect(stored.rows).toEqual([{ n: 1, count: 3, first_hours: 9, last_hours: 4, summary: 'restarted again' }]);

      const reply = await changes({ source: 'fold', sort_by: '-count' });
      expect(reply.total).toBe(2);
      expect(reply.changes.map((change) => [change.name, change.count])).toEqual([
        ['vm-1', 3],
        ['web-1', 1],
      ]);
      const unfolded = await server.pool.query<{ n: number }>(`select count(*)::integer as n from config_changes where config_id = $1 and fingerprint is null`, [id('vm-1')]);
      expect(unfolded.rows[0]?.n).toBe(1);
    });

    it('refuses malformed input with a coded 400', async () => {
      const bad: Array<Record<string, unknown>> = [
        { sort_by: 'name;drop table config_changes' },
        { sort_by: '--created_at' },
        { sort_by: 'diff' },
        { page: 0 },
        { page_size: 1001 },
        { id: 'not-a-uuid' },
        { tags: 'cluster in (prod' },
        { tags: 'cluster' },
        { tags: 'clu ster=prod' },
        { from: 'yesterday' },
        { from: 'now-1d', to: 'now-2d' },
        { severity: 'urgent' },
        { recursive: true },
        { depth: 11, id: randomUUID() },
        { type_filter: 'sideways' },
      ];
      for (const body of bad) {
        const reply = await call('/api/catalog/changes', body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.json.code, JSON.stringify(body)).toBe('OD_VALIDATION');
      }
    });

    it('refuses an anonymous caller with 401', async () => {
      expect((await call('/api/catalog/changes', {}, '')).status).toBe(401);
    });
  });

  it('documents both routes in the OpenAPI document with their permission and bodies', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    const paths = ((await response.json()) as { paths: Record<string, Record<string, { 'x-permission'?: string; requestBody?: unknown; responses: Record<string, unknown> }>> }).paths;
    for (const path of ['/api/catalog/summary', '/api/catalog/changes']) {
      const operation = paths[path]?.post;
      expect(operation?.['x-permission'], path).toBe('database:read');
      expect(operation?.requestBody, path).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}), path).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
    }
  });
});
