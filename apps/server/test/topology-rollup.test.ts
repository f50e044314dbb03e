import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComponentStatus, ComponentSummary } from '@opsdeck/shared';
import { TOPOLOGY_BUILD_SETTING } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

interface ComponentState {
  status: ComponentStatus;
  status_reason: string | null;
  summary: ComponentSummary;
  xmin: string;
}

/** shop → payments → ledger, shop → storefront; check backup/nightly-job on ledger, config checkout on storefront. */
interface Tree {
  topologyId: string;
  shop: string;
  payments: string;
  ledger: string;
  storefront: string;
  canaryId: string;
  checkId: string;
  configId: string;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

const EMPTY_CHECKS = { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 };

describe('component health and summaries kept current by the database', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function id(sql: string, values: unknown[] = [], db: Queryable = server.pool): Promise<string> {
    const result = await db.query<{ id: string }>(sql, values);
    const row = result.rows[0];
    if (row === undefined) throw new Error(`no id from: ${sql}`);
    return row.id;
  }

  async function component(topologyId: string, name: string, parentId: string | null): Promise<string> {
    return id('insert into components (topology_id, parent_id, name) values ($1, $2, $3) returning id', [topologyId, parentId, name]);
  }

  async function buildTree(): Promise<Tree> {
    const topologyId = await id(`insert into topologies (name) values ('rollup') returning id`);
    const shop = await component(topologyId, 'shop', null);
    const payments = await component(topologyId, 'payments', shop);
    const ledger = await component(topologyId, 'ledger', payments);
    const storefront = await component(topologyId, 'storefront', shop);
    const canaryId = await id(`insert into canaries (name) values ('backup') returning id`);
    const checkId = await id(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'nightly-job', 'healthy') returning id`, [canaryId]);
    await server.pool.query('insert into check_component_relationships (component_id, check_id, canary_id) values ($1, $2, $3)', [ledger, checkId, canaryId]);
    const configId = await id(`insert into config_items (type, config_class, name, health) values ('Kubernetes::Deployment', 'Kubernetes', 'checkout', 'healthy') returning id`);
    await server.pool.query('insert into config_component_relationships (component_id, config_id) values ($1, $2)', [storefront, configId]);
    return { topologyId, shop, payments, ledger, storefront, canaryId, checkId, configId };
  }

  async function state(componentId: string, db: Queryable = server.pool): Promise<ComponentState> {
    const result = await db.query<ComponentState>('select status, status_reason, summary, xmin::text as xmin from components where id = $1', [componentId]);
    const row = result.rows[0];
    if (row === undefined) throw new Error(`no component ${componentId}`);
    return row;
  }

  async function states(tree: Tree, db: Queryable = server.pool): Promise<Record<'shop' | 'payments' | 'ledger' | 'storefront', ComponentState>> {
    return {
      shop: await state(tree.shop, db),
      payments: await state(tree.payments, db),
      ledger: await state(tree.ledger, db),
      storefront: await state(tree.storefront, db),
    };
  }

  async function setCheck(checkId: string, status: 'healthy' | 'unhealthy' | null, db: Queryable = server.pool): Promise<void> {
    await db.query('update checks set status = $2, last_runtime = now() where id = $1', [checkId, status]);
  }

  async function setHealth(configId: string, health: string | null, db: Queryable = server.pool): Promise<void> {
    await db.query('update config_items set health = $2 where id = $1', [configId, health]);
  }

  async function openIncident(componentId: string, severity: string): Promise<string> {
    const incidentId = await id(`insert into incidents (title, type, severity) values ('ledger down', 'availability', $1) returning id`, [severity]);
    const hypothesisId = await id('insert into hypotheses (incident_id, title) values ($1, $2) returning id', [incidentId, 'disk full']);
    await server.pool.query(`insert into evidences (hypothesis_id, type, component_id) values ($1, 'topology', $2)`, [hypothesisId, componentId]);
    return incidentId;
  }

  it('a check going unhealthy makes its component and every ancestor unhealthy, with reasons and counts, within the writing statement', async () => {
    const tree = await buildTree();
    const before = await states(tree);
    expect(before.ledger).toMatchObject({ status: 'healthy', status_reason: null, summary: { checks: { ...EMPTY_CHECKS, healthy: 1 } } });
    expect(before.shop).toMatchObject({ status: 'healthy', status_reason: null, summary: { checks: { ...EMPTY_CHECKS, healthy: 1 } } });

    // Read inside the writer's own transaction: nothing runs after the statement, so the climb happened within it.
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      await setCheck(tree.checkId, 'unhealthy', client);
      const after = await states(tree, client);
      await client.query('commit');
      const unhealthy = { ...EMPTY_CHECKS, unhealthy: 1 };
      expect(after.ledger).toMatchObject({ status: 'unhealthy', status_reason: 'check backup/nightly-job is unhealthy', summary: { checks: unhealthy } });
      expect(after.payments).toMatchObject({ status: 'unhealthy', status_reason: 'ledger: check backup/nightly-job is unhealthy', summary: { checks: unhealthy } });
      expect(after.shop).toMatchObject({
        status: 'unhealthy',
        status_reason: 'payments: ledger: check backup/nightly-job is unhealthy',
        summary: { checks: unhealthy, incidents: {}, insights: {} },
      });
      expect(after.storefront).toMatchObject({ status: 'healthy', status_reason: null, summary: { checks: EMPTY_CHECKS } });
      expect(after.storefront.xmin).toBe(before.storefront.xmin);
    } finally {
      client.release();
    }
  });

  it('a check that recovers turns its component and ancestors healthy again and clears their reasons', async () => {
    const tree = await buildTree();
    await setCheck(tree.checkId, 'unhealthy');
    await setCheck(tree.checkId, 'healthy');
    const after = await states(tree);
    for (const name of ['ledger', 'payments', 'shop'] as const) {
      expect(after[name], name).toMatchObject({ status: 'healthy', status_reason: null, summary: { checks: { ...EMPTY_CHECKS, healthy: 1 } } });
    }
  });

  it('a check with no result yet counts as unknown', async () => {
    const tree = await buildTree();
    await setCheck(tree.checkId, null);
    const after = await states(tree);
    expect(after.ledger).toMatchObject({ status: 'unknown', status_reason: null, summary: { checks: { ...EMPTY_CHECKS, unknown: 1 } } });
    // storefront's healthy config makes the root healthy; the unknown branch does not lower it.
    expect(after.shop).toMatchObject({ status: 'healthy', summary: { checks: { ...EMPTY_CHECKS, unknown: 1 } } });
  });

  it('a config going warning marks its component and the root warning, and the root keeps the worse of its children', async () => {
    const tree = await buildTree();
    await setHealth(tree.configId, 'warning');
    let after = await states(tree);
    expect(after.storefront).toMatchObject({ status: 'warning', status_reason: 'config checkout is warning' });
    expect(after.shop).toMatchObject({ status: 'warning', status_reason: 'storefront: config checkout is warning' });
    expect(after.payments).toMatchObject({ status: 'healthy' });

    await setCheck(tree.checkId, 'unhealthy');
    after = await states(tree);
    expect(after.shop).toMatchObject({ status: 'unhealthy', status_reason: 'payments: ledger: check backup/nightly-job is unhealthy' });
    expect(after.storefront).toMatchObject({ status: 'warning' });

    await setCheck(tree.checkId, 'healthy');
    expect(await state(tree.shop)).toMatchObject({ status: 'warning', status_reason: 'storefront: config checkout is warning' });
  });

  it('several culprits are counted in the reason instead of named', async () => {
    const tree = await buildTree();
    const second = await id(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'weekly-job', 'unhealthy') returning id`, [tree.canaryId]);
    await server.pool.query('insert into check_component_relationships (component_id, check_id) values ($1, $2)', [tree.ledger, second]);
    await setCheck(tree.checkId, 'unhealthy');
    expect(await state(tree.ledger)).toMatchObject({ status: 'unhealthy', status_reason: '2 checks unhealthy', summary: { checks: { ...EMPTY_CHECKS, unhealthy: 2 } } });
    expect(await state(tree.payments)).toMatchObject({ status_reason: 'ledger: 2 checks unhealthy' });

    const own = await id(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'ledger-api', 'unhealthy') returning id`, [tree.canaryId]);
    await server.pool.query('insert into check_component_relationships (component_id, check_id) values ($1, $2)', [tree.payments, own]);
    expect(await state(tree.payments)).toMatchObject({ status_reason: '1 check and 1 component unhealthy', summary: { checks: { ...EMPTY_CHECKS, unhealthy: 3 } } });
    expect(await state(tree.shop)).toMatchObject({ status_reason: 'payments: 1 check and 1 component unhealthy', summary: { checks: { ...EMPTY_CHECKS, unhealthy: 3 } } });
  });

  it('an open insight on a linked config is counted at every level until it is resolved', async () => {
    const tree = await buildTree();
    const insight = await id(
      `insert into config_analysis (config_id, analyzer, analysis_type, severity, status) values ($1, 'public-bucket', 'security', 'high', 'open') returning id`,
      [tree.configId],
    );
    let after = await states(tree);
    expect(after.storefront.summary.insights).toEqual({ security: { high: 1 } });
    expect(after.shop.summary.insights).toEqual({ security: { high: 1 } });
    expect(after.payments.summary.insights).toEqual({});

    // Analyzers upsert their finding; a new severity moves the count.
    await server.pool.query(
      `insert into config_analysis (config_id, analyzer, analysis_type, severity) values ($1, 'public-bucket', 'security', 'critical')
       on conflict (config_id, analyzer) do update set severity = excluded.severity`,
      [tree.configId],
    );
    expect((await state(tree.shop)).summary.insights).toEqual({ security: { critical: 1 } });

    await server.pool.query(`update config_analysis set status = 'resolved' where id = $1`, [insight]);
    after = await states(tree);
    expect(after.storefront.summary.insights).toEqual({});
    expect(after.shop.summary.insights).toEqual({});
  });

  it('an open incident with evidence on a component is counted at every level until it is resolved or deleted', async () => {
    const tree = await buildTree();
    const incident = await openIncident(tree.ledger, 'high');
    let after = await states(tree);
    for (const name of ['ledger', 'payments', 'shop'] as const) {
      expect(after[name].summary.incidents, name).toEqual({ availability: { high: 1 } });
    }
    expect(after.storefront.summary.incidents).toEqual({});

    await server.pool.query(`update incidents set status = 'resolved' where id = $1`, [incident]);
    after = await states(tree);
    expect(after.ledger.summary.incidents).toEqual({});
    expect(after.shop.summary.incidents).toEqual({});

    const second = await openIncident(tree.ledger, 'critical');
    expect((await state(tree.shop)).summary.incidents).toEqual({ availability: { critical: 1 } });
    await server.pool.query('delete from incidents where id = $1', [second]);
    expect((await state(tree.shop)).summary.incidents).toEqual({});
  });

  it('deleting or restoring a child and unlinking a check recompute the component and its ancestors', async () => {
    const tree = await buildTree();
    await setCheck(tree.checkId, 'unhealthy');

    await server.pool.query('update components set deleted_at = now() where id = $1', [tree.ledger]);
    expect(await state(tree.payments)).toMatchObject({ status: 'unknown', status_reason: null, summary: { checks: EMPTY_CHECKS } });
    expect(await state(tree.shop)).toMatchObject({ status: 'healthy', status_reason: null });

    // The check recovered while ledger was deleted: coming back, ledger is recomputed from what it holds now.
    await setCheck(tree.checkId, 'healthy');
    await server.pool.query('update components set deleted_at = null where id = $1', [tree.ledger]);
    expect(await state(tree.ledger)).toMatchObject({ status: 'healthy' });
    expect(await state(tree.payments)).toMatchObject({ status: 'healthy', summary: { checks: { ...EMPTY_CHECKS, healthy: 1 } } });

    await setCheck(tree.checkId, 'unhealthy');
    await server.pool.query('update check_component_relationships set deleted_at = now() where check_id = $1', [tree.checkId]);
    expect(await state(tree.ledger)).toMatchObject({ status: 'unknown', status_reason: null, summary: { checks: EMPTY_CHECKS } });
    expect(await state(tree.shop)).toMatchObject({ status: 'healthy' });

    await server.pool.query('update check_component_relationships set deleted_at = null where check_id = $1', [tree.checkId]);
    expect(await state(tree.shop)).toMatchObject({ status: 'unhealthy' });
    await server.pool.query('delete from check_component_relationships where check_id = $1', [tree.checkId]);
    expect(await state(tree.shop)).toMatchObject({ status: 'healthy', summary: { checks: EMPTY_CHECKS } });

    await setHealth(tree.configId, 'unhealthy');
    expect(await state(tree.shop)).toMatchObject({ status: 'unhealthy' });
    await server.pool.query('delete from components where id = $1', [tree.storefront]);
    expect(await state(tree.shop)).toMatchObject({ status: 'unknown', status_reason: null });
  });

  it('a hidden component still counts towards its parent', async () => {
    const tree = await buildTree();
    await server.pool.query('update components set hidden = true where id = $1', [tree.ledger]);
    await setCheck(tree.checkId, 'unhealthy');
    expect(await state(tree.payments)).toMatchObject({ status: 'unhealthy', summary: { checks: { ...EMPTY_CHECKS, unhealthy: 1 } } });
  });

  it('while a topology run builds, nothing is recomputed until topology_refresh_tree sets every component at once', async () => {
    const tree = await buildTree();
    const before = await states(tree);
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      await client.query('select set_config($1, $2, true)', [TOPOLOGY_BUILD_SETTING, 'on']);
      await setCheck(tree.checkId, 'unhealthy', client);
      await setHealth(tree.configId, 'warning', client);
      await openIncidentWith(client, tree.storefront);
      const during = await states(tree, client);
      for (const name of ['shop', 'payments', 'ledger', 'storefront'] as const) {
        expect(during[name].xmin, name).toBe(before[name].xmin);
      }

      await client.query('select topology_refresh_tree($1)', [tree.topologyId]);
      const after = await states(tree, client);
      const setting = await client.query<{ value: string }>('select current_setting($1) as value', [TOPOLOGY_BUILD_SETTING]);
      await client.query('commit');
      expect(setting.rows[0]?.value).toBe('on');
      expect(after.ledger).toMatchObject({ status: 'unhealthy', status_reason: 'check backup/nightly-job is unhealthy' });
      expect(after.payments).toMatchObject({ status: 'unhealthy', status_reason: 'ledger: check backup/nightly-job is unhealthy' });
      expect(after.storefront).toMatchObject({ status: 'warning', summary: { incidents: { availability: { low: 1 } } } });
      expect(after.shop).toMatchObject({
        status: 'unhealthy',
        status_reason: 'payments: ledger: check backup/nightly-job is unhealthy',
        summary: { checks: { ...EMPTY_CHECKS, unhealthy: 1 }, incidents: { availability: { low: 1 } }, insights: {} },
      });
    } finally {
      client.release();
    }
    // Outside the run's transaction the triggers are back.
    await setCheck(tree.checkId, 'healthy');
    expect(await state(tree.shop)).toMatchObject({ status: 'warning' });
  });

  async function openIncidentWith(client: pg.PoolClient, componentId: string): Promise<void> {
    const incidentId = await id(`insert into incidents (title) values ('storefront slow') returning id`, [], client);
    const hypothesisId = await id('insert into hypotheses (incident_id) values ($1) returning id', [incidentId], client);
    await client.query(`insert into evidences (hypothesis_id, type, component_id) values ($1, 'topology', $2)`, [hypothesisId, componentId]);
  }

  it('a write that changes no input of a component writes no component row', async () => {
    const tree = await buildTree();
    const before = await states(tree);
    const unrelated = await id(`insert into config_items (type, config_class, name, health) values ('AWS::EC2', 'AWS', 'spare', 'healthy') returning id`);
    await setHealth(unrelated, 'unhealthy');
    await server.pool.query(`update config_items set description = 'the checkout deployment' where id = $1`, [tree.configId]);
    await setHealth(tree.configId, 'healthy');
    await setCheck(tree.checkId, 'healthy');
    await server.pool.query(`insert into config_analysis (config_id, analyzer, analysis_type, status) values ($1, 'old-finding', 'cost', 'resolved')`, [tree.configId]);
    await server.pool.query(`update components set description = 'the shop' where id = $1`, [tree.ledger]);
    const after = await states(tree);
    expect(after.shop.xmin).toBe(before.shop.xmin);
    expect(after.payments.xmin).toBe(before.payments.xmin);
    expect(after.storefront.xmin).toBe(before.storefront.xmin);
  });

  it('one statement changing many configs refreshes every component they belong to', async () => {
    const tree = await buildTree();
    const ledgerConfig = await id(`insert into config_items (type, config_class, name, health) values ('Postgres::Database', 'Postgres', 'ledger-db', 'healthy') returning id`);
    await server.pool.query('insert into config_component_relationships (component_id, config_id) values ($1, $2)', [tree.ledger, ledgerConfig]);
    await server.pool.query(`update config_items set health = 'unhealthy' where id = any($1::uuid[])`, [[tree.configId, ledgerConfig]]);
    const after = await states(tree);
    expect(after.ledger).toMatchObject({ status: 'unhealthy', status_reason: 'config ledger-db is unhealthy' });
    expect(after.storefront).toMatchObject({ status: 'unhealthy', status_reason: 'config checkout is unhealthy' });
    expect(after.shop).toMatchObject({ status: 'unhealthy', status_reason: '2 components unhealthy' });
  });

  it('a change at the bottom of a deep tree reaches its root', async () => {
    const topologyId = await id(`insert into topologies (name) values ('deep') returning id`);
    const root = await component(topologyId, 'level-0', null);
    let parent = root;
    for (let level = 1; level <= 24; level += 1) parent = await component(topologyId, `level-${level}`, parent);
    const canaryId = await id(`insert into canaries (name) values ('deep') returning id`);
    const checkId = await id(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'bottom', 'healthy') returning id`, [canaryId]);
    await server.pool.query('insert into check_component_relationships (component_id, check_id) values ($1, $2)', [parent, checkId]);
    expect(await state(root)).toMatchObject({ status: 'healthy' });
    await setCheck(checkId, 'unhealthy');
    const top = await state(root);
    expect(top.status).toBe('unhealthy');
    expect(top.status_reason).toMatch(/^level-1: level-2: .* level-24: check deep\/bottom is unhealthy$/);
    expect(top.summary.checks).toEqual({ ...EMPTY_CHECKS, unhealthy: 1 });
  });
});
