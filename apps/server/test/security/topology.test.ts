import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { startTestServer, type TestServer } from '../harness';

const SEALED_PLAINTEXT = 'topology-snapshot-plaintext';

/**
 * What a signed-in user could try to make the server do through topologies: run code, SQL or requests from a spec,
 * erase what a run recorded, recompute or read past their role, or pull a canary's secrets out through a snapshot.
 */
describe('topology attacks fail', () => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let componentId: string;
  let topologyId: string;
  const previousRole = process.env.OPSDECK_ROLE;

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
    const saved = await server.call('POST', '/api/db/topologies', editor, { name: 'guarded', spec: { components: [{ name: 'web' }] } }, { Prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    topologyId = (JSON.parse(saved.text) as Array<{ id: string }>)[0]?.id ?? '';
    const component = await server.pool.query<{ id: string }>(
      `insert into components (topology_id, name, type) values ($1, 'web', 'Service') returning id`,
      [topologyId],
    );
    componentId = component.rows[0]?.id ?? '';
    const canary = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'guarded-canary',
      spec: { http: [{ name: 'guarded-check', url: 'http://127.0.0.1:9/', headers: { 'X-Password': SEALED_PLAINTEXT } }] },
    });
    expect(canary.status, canary.text).toBe(201);
    await server.pool.query(
      `insert into check_component_relationships (component_id, check_id, canary_id, selector_id)
       select $1, k.id, k.canary_id, 'topology:guard' from checks k join canaries c on c.id = k.canary_id where c.name = 'guarded-canary'`,
      [componentId],
    );
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it.each([
    ['an inline exec check', { components: [{ name: 'a', checks: [{ inline: { exec: [{ name: 'x', script: 'id' }] } }] }] }, 'OD_TOPOLOGY_SPEC'],
    ['an inline check carrying a token', { components: [{ name: 'a', checks: [{ inline: { http: [{ name: 'x', url: 'https://a.test', headers: { 'X-Api-Key': 'k3y-value' } }] } }] }] }, 'OD_TOPOLOGY_SPEC'],
    ['an exec lookup', { components: [{ name: 'a', lookup: { exec: [{ script: 'id', display: { expr: '[]' } }] } }] }, 'OD_TOPOLOGY_FIELD_NOT_RUN'],
    ['an http lookup carrying a token', { components: [{ name: 'a', lookup: { http: [{ url: 'https://a.test', headers: { 'X-Api-Key': 'k3y-value' }, display: { expr: '[]' } }] } }] }, 'OD_TOPOLOGY_SPEC'],
    ['a configDB (SQL) lookup', { components: [{ name: 'a', lookup: { configDB: [{ query: 'select * from people' }] } }] }, 'OD_TOPOLOGY_FIELD_NOT_RUN'],
    ['a property lookup running a check', { properties: [{ name: 'p', lookup: { exec: [{ script: 'cat /etc/passwd' }] } }] }, 'OD_TOPOLOGY_FIELD_NOT_RUN'],
    ['a JSONPath script expression', { components: [{ name: 'a', lookup: { catalog: [{ types: ['X'] }] }, forEach: { properties: [{ name: 'p', configLookup: { field: '$..[?(@.constructor)]' } }] } }] }, 'OD_TOPOLOGY_SPEC'],
  ])('refuses a spec with %s on create and on a filtered PATCH', async (_label, spec, code) => {
    const created = await server.call('POST', '/api/db/topologies', editor, { name: 'attack', spec });
    expect(created.status, created.text).toBe(400);
    expect(created.json).toMatchObject({ code });
    const patched = await server.call('PATCH', `/api/db/topologies?id=eq.${topologyId}`, editor, { spec });
    expect(patched.status, patched.text).toBe(400);
    const stored = await server.pool.query<{ spec: unknown }>('select spec from topologies where id = $1', [topologyId]);
    expect(JSON.stringify(stored.rows[0]?.spec)).not.toContain('lookup');
  });

  it('lets no viewer link, relink or recompute components', async () => {
    const config = await server.pool.query<{ id: string }>(`insert into config_items (name, type, config_class) values ('guard-item', 'Kubernetes::Pod', 'Kubernetes') returning id`);
    const link = await server.call('POST', '/api/db/config_component_relationships', viewer, { component_id: componentId, config_id: config.rows[0]?.id, selector_id: 'manual' });
    expect(link.status).toBe(403);
    const team = await server.call('POST', '/api/db/team_components', viewer, { component_id: componentId, team_id: '00000000-0000-0000-0000-000000000000', selector_id: 'manual' });
    expect(team.status).toBe(403);
    const refresh = await server.call('POST', '/api/db/rpc/topology_refresh_tree', viewer, { p_topology_id: topologyId });
    expect(refresh.status).toBe(403);
  });

  it('keeps the check links and team owners a topology run recorded from being removed or forged through the data API', async () => {
    const removed = await server.call('DELETE', `/api/db/check_component_relationships?component_id=eq.${componentId}`, editor);
    expect(removed.status, removed.text).toBe(400);
    const left = await server.pool.query<{ n: number }>('select count(*)::int as n from check_component_relationships where component_id = $1', [componentId]);
    expect(left.rows[0]?.n).toBe(1);
    const team = await server.pool.query<{ id: string }>(`insert into teams (name) values ('guard-team') returning id`);
    await server.pool.query(`insert into team_components (team_id, component_id, selector_id) values ($1, $2, 'topology')`, [team.rows[0]?.id, componentId]);
    const unowned = await server.call('DELETE', `/api/db/team_components?component_id=eq.${componentId}`, editor);
    expect(unowned.status, unowned.text).toBe(400);
    const forged = await server.call('POST', '/api/db/team_components', editor, { component_id: componentId, team_id: team.rows[0]?.id, selector_id: 'topology:forged' });
    expect(forged.status, forged.text).toBe(400);
    const manual = await server.call('POST', '/api/db/team_components', editor, { component_id: componentId, team_id: team.rows[0]?.id, selector_id: 'manual' });
    expect(manual.status, manual.text).toBe(201);
    const unlinked = await server.call('DELETE', `/api/db/team_components?component_id=eq.${componentId}&selector_id=eq.manual`, editor);
    expect(unlinked.status, unlinked.text).toBe(204);
  });

  it('puts no sealed canary secret and no check spec into a snapshot', async () => {
    const response = await fetch(`${server.url}/api/snapshot/topology/${componentId}?start=1d`, { headers: { cookie: viewer } });
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const text = Object.values(files).map((file) => strFromU8(file)).join('\n');
    expect(text).toContain('guarded-check');
    expect(text).not.toContain(SEALED_PLAINTEXT);
    expect(text).not.toContain('$encrypted');
    expect(text).not.toContain('X-Password');
  });
});
