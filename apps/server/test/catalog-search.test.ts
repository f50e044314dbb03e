import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonReply, type TestServer } from './harness';

/**
 * Search inside config items (issue #11 item 6, migration 0083): `rpc/search_configs` through /api/db, on an estate of
 * its own (type CSTest::*), read like the configs view the flat table reads.
 */

const ID = {
  agent: '00000000-0000-4000-8000-00000000cd01',
  byName: '00000000-0000-4000-8000-00000000cd11',
  byLabel: '00000000-0000-4000-8000-00000000cd12',
  byContent: '00000000-0000-4000-8000-00000000cd13',
  byTag: '00000000-0000-4000-8000-00000000cd14',
  gone: '00000000-0000-4000-8000-00000000cd15',
  node: '00000000-0000-4000-8000-00000000cd16',
} as const;

const FIXTURE_SQL = `
  insert into agents (id, name) values ('${ID.agent}', 'cs-agent');
  insert into config_items (id, type, config_class, name, status, health, labels, tags, config, agent_id) values
    ('${ID.byName}', 'CSTest::Deployment', 'CSTest', 'cs-orion-api', 'Running', 'healthy', '{"app": "cs-web"}',
     '{"cluster": "cs-prod"}', '{"spec": {"image": "nginx:1.25"}}', '${ID.agent}'),
    ('${ID.byLabel}', 'CSTest::Pod', 'CSTest', 'cs-web-1', 'Running', 'unhealthy', '{"team": "orion"}',
     '{"cluster": "cs-prod"}', '{"spec": {"nodeName": "cs-node-3"}}', null),
    ('${ID.byContent}', 'CSTest::Pod', 'CSTest', 'cs-web-2', 'Pending', 'healthy', '{"app": "cs-web"}',
     '{"cluster": "cs-stage"}', '{"metadata": {"annotations": {"owner": "orion"}}, "pod": "checkout-7f9c4d-x2k", "count": 70421}', null),
    ('${ID.byTag}', 'CSTest::Service', 'CSTest', 'cs-svc', 'Active', 'healthy', '{}',
     '{"cluster": "cs-prod", "zone": "eu-west-1a"}', '{"spec": {"clusterIP": "10.96.14.201"}}', null),
    ('${ID.node}', 'CSTest::Node', 'CSTest', 'cs-node-3', 'Ready', 'healthy', '{}', '{}', '{"addresses": ["10.0.3.17"]}', null);
  insert into config_items (id, type, config_class, name, config, deleted_at) values
    ('${ID.gone}', 'CSTest::Pod', 'CSTest', 'cs-gone', '{"owner": "orion"}', now());
`;

type Row = Record<string, unknown>;

describe('search inside config items (rpc/search_configs)', () => {
  let server: TestServer;
  let viewer: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(FIXTURE_SQL);
    viewer = await server.cookieFor('viewer');
  });
  afterAll(async () => {
    await server.close();
  });

  function call(path: string, cookie = viewer): Promise<JsonReply> {
    return server.call('GET', `/api/db/${path}`, cookie);
  }

  async function rows(path: string): Promise<Row[]> {
    const reply = await call(path);
    expect(reply.status, reply.text).toBe(200);
    return JSON.parse(reply.text) as Row[];
  }

  async function names(search: string, rest = ''): Promise<unknown[]> {
    return (await rows(`rpc/search_configs?search=${encodeURIComponent(search)}&type=like.CSTest*&select=name&order=rank.desc,name${rest}`)).map(
      (row) => row.name,
    );
  }

  it('finds an item by a word that only its content holds, as a string value or as a key, but not by a number', async () => {
    expect(await names('70421')).toEqual([]);
    expect(await names('cs-node-3')).toEqual(['cs-node-3', 'cs-web-1']);
    // A ConfigMap is looked up by the setting it holds as often as by its value.
    expect(await names('nodeName')).toEqual(['cs-web-1']);
  });

  it('ranks an item named by the word above one labelled with it, and that above one whose content holds it', async () => {
    expect(await names('orion', '&deleted_at=is.null')).toEqual(['cs-orion-api', 'cs-web-1', 'cs-web-2']);
    const ranked = await rows('rpc/search_configs?search=orion&deleted_at=is.null&select=name,rank&order=rank.desc');
    const ranks = ranked.map((row) => Number(row.rank));
    expect(ranks[0]).toBeGreaterThanOrEqual(2);
    expect(ranks[1]).toBeGreaterThanOrEqual(1);
    expect(ranks[1]).toBeLessThan(2);
    expect(ranks[2]).toBeLessThan(1);
  });

  it('lists the item named exactly by the search first, then names starting with it, above names that hold it twice', async () => {
    await server.pool.query(
      `insert into config_items (type, config_class, name) values
         ('CSTest::Pod', 'CSTest', 'cs-atlas-7f9c-atlas'), ('CSTest::Deployment', 'CSTest', 'CS-Atlas'),
         ('CSTest::Service', 'CSTest', 'cs-atlas-svc'), ('CSTest::Pod', 'CSTest', 'api-cs-atlas-1')`,
    );
    expect(await names('cs-atlas')).toEqual(['CS-Atlas', 'cs-atlas-7f9c-atlas', 'cs-atlas-svc', 'api-cs-atlas-1']);
  });

  it('matches hyphenated identifiers whole, by their parts and by a prefix of the last word', async () => {
    expect(await names('checkout-7f9c4d-x2k')).toEqual(['cs-web-2']);
    expect(await names('checkout-7f9c')).toEqual(['cs-web-2']);
    expect(await names('7f9c4d')).toEqual(['cs-web-2']);
    expect(await names('checkout 7f9c4d-x2')).toEqual(['cs-web-2']);
  });

  it('matches IP addresses whole and by their leading part, and tag values', async () => {
    expect(await names('10.96.14.201')).toEqual(['cs-svc']);
    expect(await names('10.0.3')).toEqual(['cs-node-3']);
    expect(await names('eu-west-1a')).toEqual(['cs-svc']);
    expect(await names('eu-west 10.96.14.2')).toEqual(['cs-svc']);
  });

  it('combines the search with the flat table filters, embeds, exact count and paging', async () => {
    const reply = await call(
      'rpc/search_configs?search=orion&type=eq.CSTest::Pod&health=eq.healthy&deleted_at=is.null' +
        '&select=name,labels,changes,analysis,agent:agent_id(id,name)&order=rank.desc,name&limit=1',
    );
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text)).toEqual([{ name: 'cs-web-2', labels: { app: 'cs-web' }, changes: 0, analysis: {}, agent: null }]);

    const counted = await fetch(`${server.url}/api/db/rpc/search_configs?search=cs-prod&type=like.CSTest*&select=name&order=name&limit=1`, {
      headers: { cookie: viewer, Prefer: 'count=exact' },
    });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('0-0/3');
    expect(await names('cs-web', '&labels=cs.{"app":"cs-web"}')).toEqual(['cs-web-2', 'cs-orion-api']);
    const running = await rows('rpc/search_configs?search=cs-prod&tags=cs.{"cluster":"cs-prod"}&status=eq.Running&select=name&order=name');
    expect(running.map((row) => row.name)).toEqual(['cs-orion-api', 'cs-web-1']);
    expect(await rows(`rpc/search_configs?search=cs-orion-api&select=name,agent:agent_id(name)`)).toEqual([
      { name: 'cs-orion-api', agent: { name: 'cs-agent' } },
    ]);
  });

  it('lets a viewer search and answers the configs columns only, never the content or the search document', async () => {
    const [row] = await rows(`rpc/search_configs?search=cs-orion-api`);
    expect(row?.name).toBe('cs-orion-api');
    expect(Object.keys(row ?? {})).not.toContain('config');
    expect(Object.keys(row ?? {})).not.toContain('search_vector');
    expect((await call('rpc/search_configs?search=orion&select=config')).status).toBe(400);
    expect((await call('rpc/search_configs?search=orion&select=search_vector')).status).toBe(400);
  });

  it('searches the item content only, not the tables an admin alone may read', async () => {
    await server.pool.query(`insert into people (name, email) values ('Orion Secretkeeper', 'cs-zeta-admin@opsdeck.local')`);
    expect(await names('cs-zeta-admin')).toEqual([]);
    expect(await names('Secretkeeper')).toEqual([]);
  });

  it('finds nothing for punctuation alone and refuses a search over 200 characters with a coded 400, never a 500', async () => {
    expect(await names('!!! ... ---')).toEqual([]);
    expect(await names('')).toEqual([]);
    expect(await names(`'":*&|!()<->`)).toEqual([]);
    for (const search of ['x'.repeat(201), 'a-'.repeat(5000)]) {
      const reply = await call(`rpc/search_configs?search=${search}`);
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
      expect(reply.status, reply.text).toBeLessThan(500);
    }
    const long = await call(`rpc/search_configs?search=${'x'.repeat(201)}`);
    expect({ status: long.status, code: long.json.code }).toEqual({ status: 400, code: '22023' });
  });

  it('turns the search into its tsquery once per call, not once per matching row, under the generic plan a prepared statement gets', async () => {
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      await client.query(`set local plan_cache_mode = force_generic_plan`);
      await client.query('prepare ranked_search(text) as select id from search_configs($1) order by rank desc limit 200');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) execute ranked_search('orion')`);
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      // The PL/pgSQL call runs in InitPlans, which the plan shows by name: none is left in a per-row condition or sort key.
      expect(text).toContain('InitPlan 1');
      expect(text).not.toContain('config_search_query(');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
