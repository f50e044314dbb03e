import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { isWholeComponent, type TopologyComponent, type TopologyComponentRow, type TopologyResponse } from '@opsdeck/shared';
import { TOPOLOGY_BUILD_SETTING } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

interface Tree {
  alpha: string;
  beta: string;
  root: string;
  api: string;
  db: string;
  cache: string;
  worker: string;
  gone: string;
  podA: string;
  podB: string;
  deep: string;
  betaRoot: string;
  agent: string;
  team: string;
  check: string;
}

async function one(client: pg.PoolClient, sql: string, values: unknown[] = []): Promise<string> {
  const result = await client.query<{ id: string }>(sql, values);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`no id from ${sql}`);
  return id;
}

/**
 * Two live topologies and a deleted one, written with the rollup triggers standing aside (as a topology run writes),
 * so every status is the one set here.
 */
async function seedTree(pool: pg.Pool): Promise<Tree> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config($1, 'on', true)`, [TOPOLOGY_BUILD_SETTING]);
    // The demo's topologies would be roots too; this suite reads only its own.
    await client.query('update topologies set deleted_at = now() where deleted_at is null');
    const agent = await one(client, `insert into agents (name) values ('topology-api-agent') returning id`);
    const alpha = await one(client, `insert into topologies (name) values ('Alpha') returning id`);
    const beta = await one(client, `insert into topologies (name) values ('Beta') returning id`);
    const dead = await one(client, `insert into topologies (name, deleted_at) values ('Dead', now()) returning id`);
    const component = (
      topology: string,
      parent: string | null,
      name: string,
      fields: { type?: string; status?: string; labels?: Record<string, string>; agent?: string; hidden?: boolean; deleted?: boolean } = {},
    ): Promise<string> =>
      one(
        client,
        `insert into components (topology_id, parent_id, name, type, status, labels, agent_id, hidden, deleted_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, case when $9 then now() end) returning id`,
        [topology, parent, name, fields.type ?? null, fields.status ?? 'unknown', JSON.stringify(fields.labels ?? {}), fields.agent ?? null, fields.hidden ?? false, fields.deleted ?? false],
      );
    const root = await component(alpha, null, 'Alpha', { type: 'system', status: 'warning', labels: { env: 'prod' } });
    const betaRoot = await component(beta, null, 'Beta', { type: 'cluster', status: 'healthy', labels: { env: 'staging' }, agent });
    await component(dead, null, 'Dead', { type: 'system' });
    const api = await component(alpha, root, 'api', { type: 'service', status: 'healthy', labels: { tier: 'web' } });
    const db = await component(alpha, root, 'db', { type: 'database', status: 'unhealthy', labels: { tier: 'data' }, agent });
    const cache = await component(alpha, root, 'cache', { type: 'service', status: 'unknown', hidden: true });
    const worker = await component(alpha, root, 'worker', { type: 'service', status: 'warning', labels: { tier: 'web' } });
    const gone = await component(alpha, root, 'gone', { type: 'service', status: 'unhealthy', deleted: true });
    const podA = await component(alpha, api, 'pod-a', { type: 'pod', status: 'healthy' });
    const podB = await component(alpha, api, 'pod-b', { type: 'pod', status: 'unhealthy' });
    const deep = await component(alpha, podA, 'container', { type: 'container', status: 'healthy' });
    await client.query(
      `update components set cost_per_minute = 1.25, cost_total_1d = 1800, log_selectors = '[{"name": "api"}]', is_leaf = false,
                             properties = '[{"name": "replicas", "value": 3}]', summary = '{}'
        where id = $1`,
      [api],
    );
    const team = await one(client, `insert into teams (name, icon) values ('Topology Team', 'group') returning id`);
    await client.query(`insert into team_components (team_id, component_id) values ($1, $2)`, [team, api]);
    const canary = await one(client, `insert into canaries (name) values ('topology-api') returning id`);
    const check = await one(client, `insert into checks (canary_id, type, name, icon, status) values ($1, 'http', 'api-health', 'http', 'healthy') returning id`, [
      canary,
    ]);
    await client.query(`insert into check_component_relationships (component_id, check_id, canary_id) values ($1, $2, $3)`, [api, check, canary]);
    await client.query('commit');
    return { alpha, beta, root, api, db, cache, worker, gone, podA, podB, deep, betaRoot, agent, team, check };
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

type Level = ReadonlyArray<TopologyComponent | TopologyComponentRow> | undefined;

const names = (components: Level): string[] => (components ?? []).map((component) => component.name);

function named(components: Level, name: string): TopologyComponent | TopologyComponentRow {
  const found = components?.find((component) => component.name === name);
  if (found === undefined) throw new Error(`no component named ${name} in ${JSON.stringify(names(components))}`);
  return found;
}

/** The component named `name`, which must be whole: this level is drawn as cards. */
function wholeNamed(components: Level, name: string): TopologyComponent {
  const found = named(components, name);
  if (!isWholeComponent(found)) throw new Error(`${name} is a row where a whole component belongs`);
  return found;
}

/** The component named `name`, which must be a row: this level is listed inside a card. */
function rowNamed(components: Level, name: string): TopologyComponentRow {
  const found = named(components, name);
  if (isWholeComponent(found)) throw new Error(`${name} is a whole component where a row belongs`);
  return found;
}

describe('GET /api/topology', () => {
  let server: TestServer;
  let viewer: string;
  let tree: Tree;

  async function topology(query = ''): Promise<TopologyResponse> {
    const reply = await server.call('GET', `/api/topology${query}`, viewer);
    expect(reply.status, reply.text).toBe(200);
    return reply.json as unknown as TopologyResponse;
  }

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    tree = await seedTree(server.pool);
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the root of every live topology with its children as rows, worst status first, and no grandchildren', async () => {
    const answer = await topology();
    expect(names(answer.components)).toEqual(['Alpha', 'Beta']);
    const alpha = answer.components[0];
    expect(names(alpha?.components)).toEqual(['db', 'worker', 'api', 'cache']);
    expect(rowNamed(alpha?.components, 'api')).not.toHaveProperty('components');
    const text = JSON.stringify(answer);
    expect(text).not.toContain(tree.podA);
    expect(text).not.toContain(tree.podB);
    expect(text).not.toContain(tree.gone);
  });

  it('gives a row under a card only what the row shows', async () => {
    const answer = await topology();
    const api = rowNamed(answer.components[0]?.components, 'api');
    expect(api).toEqual({
      id: tree.api,
      parent_id: tree.root,
      path: tree.root,
      name: 'api',
      icon: null,
      type: 'service',
      status: 'healthy',
      status_reason: null,
      hidden: false,
      is_leaf: false,
    });
    expect(api).not.toHaveProperty('summary');
    expect(api).not.toHaveProperty('properties');
  });

  it('answers a component with its children as whole components and theirs as rows, never deeper and never deleted ones', async () => {
    const answer = await topology(`?id=${tree.api}`);
    expect(names(answer.components)).toEqual(['api']);
    const api = answer.components[0];
    expect(names(api?.components)).toEqual(['pod-b', 'pod-a']);
    const podA = wholeNamed(api?.components, 'pod-a');
    expect(names(podA.components)).toEqual(['container']);
    const container = rowNamed(podA.components, 'container');
    expect(container).toMatchObject({ id: tree.deep, parent_id: tree.podA, status: 'healthy' });
    expect(container).not.toHaveProperty('summary');
    expect(container).not.toHaveProperty('properties');
    expect(container).not.toHaveProperty('components');

    const root = await topology(`?id=${tree.root}`);
    const cards = root.components[0]?.components;
    expect(names(cards)).toEqual(['db', 'worker', 'api', 'cache']);
    expect(cards?.every(isWholeComponent)).toBe(true);
    expect(names(wholeNamed(cards, 'api').components)).toEqual(['pod-b', 'pod-a']);
    expect(rowNamed(wholeNamed(cards, 'api').components, 'pod-a')).not.toHaveProperty('summary');
    expect(JSON.stringify(root)).not.toContain(tree.gone);
    expect(JSON.stringify(root)).not.toContain(tree.deep);
  });

  it('gives each component its fields, own checks, teams, logs flag, numeric costs and a complete summary', async () => {
    const answer = await topology(`?id=${tree.api}`);
    const api = answer.components[0];
    expect(api).toMatchObject({
      id: tree.api,
      topology_id: tree.alpha,
      parent_id: tree.root,
      path: tree.root,
      name: 'api',
      type: 'service',
      status: 'healthy',
      hidden: false,
      is_leaf: false,
      labels: { tier: 'web' },
      properties: [{ name: 'replicas', value: 3 }],
      checks: [{ id: tree.check, name: 'api-health', icon: 'http', type: 'http', status: 'healthy' }],
      teams: [{ id: tree.team, name: 'Topology Team', icon: 'group' }],
      logs: true,
      cost_per_minute: 1.25,
      cost_total_1d: 1800,
      cost_total_7d: null,
      deleted_at: null,
    });
    expect(typeof api?.created_at).toBe('string');
    const podB = wholeNamed(api?.components, 'pod-b');
    expect(podB).toMatchObject({ checks: [], teams: [], logs: false, cost_per_minute: null });
    expect(podB.summary).toEqual({ checks: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 }, incidents: {}, insights: {} });
  });

  it('marks a component as having logs when a log backend route matches it, and not once the backend is deleted', async () => {
    const backend = await server.pool.query<{ id: string }>(
      `insert into logging_backends (name, spec) values ('pod-logs', $1) returning id`,
      [JSON.stringify({ routes: [{ kind: 'component', type: 'po*' }], file: { paths: ['pods/*.log'] } })],
    );
    try {
      const routed = await topology(`?id=${tree.api}`);
      expect(wholeNamed(routed.components[0]?.components, 'pod-b').logs).toBe(true);
      await server.pool.query(`update logging_backends set deleted_at = now() where id = $1`, [backend.rows[0]?.id]);
      const gone = await topology(`?id=${tree.api}`);
      expect(wholeNamed(gone.components[0]?.components, 'pod-b').logs).toBe(false);
    } finally {
      await server.pool.query(`delete from logging_backends where id = $1`, [backend.rows[0]?.id]);
    }
  });

  it('keeps hidden components, marked hidden, as cards and as rows', async () => {
    const answer = await topology(`?id=${tree.root}`);
    expect(wholeNamed(answer.components[0]?.components, 'cache').hidden).toBe(true);
    const roots = await topology();
    expect(rowNamed(roots.components[0]?.components, 'cache').hidden).toBe(true);
  });

  it('describes the unfiltered card level in healthStatuses, tags, teams and types', async () => {
    const answer = await topology(`?id=${tree.root}&type=database`);
    expect(names(answer.components[0]?.components)).toEqual(['db']);
    expect(answer.healthStatuses).toEqual(['unhealthy', 'warning', 'healthy', 'unknown']);
    expect(answer.tags).toEqual({ tier: ['data', 'web'] });
    expect(answer.teams).toEqual(['Topology Team']);
    expect(answer.types).toEqual(['database', 'service']);

    const roots = await topology('?type=cluster');
    expect(names(roots.components)).toEqual(['Beta']);
    // Without an id the Type filter offers every live component's type, since it reaches every depth.
    expect(roots.types).toEqual(['cluster', 'container', 'database', 'pod', 'service', 'system']);
    expect(roots.tags).toEqual({ env: ['prod', 'staging'] });
    expect(roots.healthStatuses).toEqual(['warning', 'healthy']);
    expect(roots.teams).toEqual([]);
  });

  it('filters the children of id by type, team, labels, status and agent', async () => {
    const cards = async (query: string): Promise<string[]> => names((await topology(`?id=${tree.root}&${query}`)).components[0]?.components);
    expect(await cards('type=service')).toEqual(['worker', 'api', 'cache']);
    expect(await cards('team=Topology%20Team')).toEqual(['api']);
    expect(await cards('labels=tier%3Dweb')).toEqual(['worker', 'api']);
    expect(await cards('labels=tier%3Dweb,env%3Dprod')).toEqual([]);
    expect(await cards('status=unhealthy,warning')).toEqual(['db', 'worker']);
    expect(await cards('status=unknown')).toEqual(['cache']);
    expect(await cards(`agent_id=${tree.agent}`)).toEqual(['db']);
    expect(await cards('agent_id=local')).toEqual(['worker', 'api', 'cache']);
    expect(await cards('type=service&status=healthy')).toEqual(['api']);
  });

  it('answers every live component of a type, at any depth, for a type without id (the Type links of components)', async () => {
    expect(names((await topology('?type=service')).components)).toEqual(['worker', 'api', 'cache']);
    expect(names((await topology('?type=pod')).components)).toEqual(['pod-b', 'pod-a']);
    expect(names((await topology('?type=pod&status=healthy')).components)).toEqual(['pod-a']);
    expect(names((await topology('?type=system')).components)).toEqual(['Alpha']);
  });

  it('filters the roots without id', async () => {
    expect(names((await topology('?agent_id=local')).components)).toEqual(['Alpha']);
    expect(names((await topology(`?agent_id=${tree.agent}`)).components)).toEqual(['Beta']);
    expect(names((await topology('?labels=env%3Dprod')).components)).toEqual(['Alpha']);
    expect(names((await topology('?status=healthy')).components)).toEqual(['Beta']);
  });

  it("treats 'All' as no filter", async () => {
    const answer = await topology(`?id=${tree.root}&type=All&team=All&labels=All&status=All&agent_id=All`);
    expect(names(answer.components[0]?.components)).toEqual(['db', 'worker', 'api', 'cache']);
    expect(names((await topology('?id=All')).components)).toEqual(['Alpha', 'Beta']);
  });

  it('answers no components for an unknown or deleted id', async () => {
    expect((await topology('?id=00000000-0000-4000-8000-000000000000')).components).toEqual([]);
    expect((await topology(`?id=${tree.gone}`)).components).toEqual([]);
  });

  it('refuses a malformed id, status, agent or labels with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['id=nope', '/id'],
      ['status=broken', '/status'],
      ['status=healthy,broken', '/status'],
      ['agent_id=someone', '/agent_id'],
      ['labels=novalue', '/labels'],
    ] as const) {
      const reply = await server.call('GET', `/api/topology?${query}`, viewer);
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ code: 'OD_VALIDATION' });
      expect(String(reply.json.details)).toContain(field);
    }
  });

  it('needs a session', async () => {
    const reply = await fetch(`${server.url}/api/topology`);
    expect(reply.status).toBe(401);
  });
});
