import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTopology } from '../src/modules/topology';
import type { TopologyRow } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

/** Assigning undefined to process.env stores the text 'undefined'. */
function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

interface OwnedCanary {
  name: string;
  deleted: boolean;
  checks: string[];
}

/**
 * Mission Control's inline checks on topology components (issue #32 item 4; canary-checker's inline-check.yaml and
 * canary-selector.yaml): each becomes a canary the topology owns, whose checks count toward the component.
 */
describe('inline checks of a topology', () => {
  let server: TestServer;
  let editor: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const inline = (name: string) => ({ schedule: '@every 1m', http: [{ name, url: 'http://127.0.0.1:9/status/202', responseCodes: [202] }] });

  async function save(name: string, spec: unknown): Promise<TopologyRow> {
    const reply = await server.call('POST', '/api/db/topologies', editor, { name, spec }, { prefer: 'return=representation' });
    expect(reply.status, reply.text).toBe(201);
    return (JSON.parse(reply.text) as TopologyRow[])[0] as TopologyRow;
  }

  async function stored(id: string): Promise<TopologyRow> {
    const row = await server.pool.query<TopologyRow>('select id, name, namespace, icon, labels, spec, schedule, agent_id from topologies where id = $1', [id]);
    return row.rows[0] as TopologyRow;
  }

  async function owned(topologyId: string): Promise<OwnedCanary[]> {
    const rows = await server.pool.query<OwnedCanary>(
      `select c.name, c.deleted_at is not null as deleted,
              coalesce(array_agg(k.name order by k.name) filter (where k.id is not null and k.deleted_at is null), '{}') as checks
         from canaries c left join checks k on k.canary_id = c.id
        where c.source like $1 group by c.id order by c.name`,
      [`topology:${topologyId}/%`],
    );
    return rows.rows;
  }

  async function attached(topologyId: string, component: string): Promise<string[]> {
    const rows = await server.pool.query<{ name: string }>(
      `select k.name from check_component_relationships r join components c on c.id = r.component_id join checks k on k.id = r.check_id
        where c.topology_id = $1 and c.name = $2 and r.deleted_at is null order by k.name`,
      [topologyId, component],
    );
    return rows.rows.map((row) => row.name);
  }

  beforeAll(async () => {
    // The api role starts no scheduler of its own: the test runs the topology itself.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_ROLE', previousRole);
    await server.close();
  });

  it('keeps a canary per inline entry, attaches its checks beside the selected ones, and follows the spec and the topology', async () => {
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name) values ('inline-neighbour') returning id`);
    await server.pool.query(`insert into checks (canary_id, type, name, labels) values ($1, 'http', 'selected-check', '{"canary":"http-sel"}')`, [canary.rows[0]?.id]);
    const topology = await save('shop', {
      type: 'Website',
      components: [
        { name: 'storefront', checks: [{ selector: { labelSelector: 'canary=http-sel' }, inline: inline('http-pass') }] },
        { name: 'payments', checks: [{ inline: inline('http-202') }] },
      ],
    });

    expect((await runTopology(server.pool, await stored(topology.id))).status).toBe('SUCCESS');
    expect(await owned(topology.id)).toEqual([
      { name: 'shop-payments', deleted: false, checks: ['http-202'] },
      { name: 'shop-storefront', deleted: false, checks: ['http-pass'] },
    ]);
    expect(await attached(topology.id, 'storefront')).toEqual(['http-pass', 'selected-check']);
    expect(await attached(topology.id, 'payments')).toEqual(['http-202']);
    const due = await server.pool.query(`select 1 from checks k join canaries c on c.id = k.canary_id where c.source like $1 and k.next_runtime <= now()`, [`topology:${topology.id}/%`]);
    expect(due.rowCount).toBe(2);

    // Run again: the same canaries, nothing rewritten.
    const before = await server.pool.query<{ x: string }>(`select string_agg(id || ':' || xmin::text, ',' order by id) as x from canaries where source like $1`, [`topology:${topology.id}/%`]);
    await runTopology(server.pool, await stored(topology.id));
    const after = await server.pool.query<{ x: string }>(`select string_agg(id || ':' || xmin::text, ',' order by id) as x from canaries where source like $1`, [`topology:${topology.id}/%`]);
    expect(after.rows[0]?.x).toBe(before.rows[0]?.x);

    // The spec drops the payments check: its canary and check go, the other stays.
    const patched = await server.call('PATCH', `/api/db/topologies?id=eq.${topology.id}`, editor, {
      spec: { type: 'Website', components: [{ name: 'storefront', checks: [{ inline: inline('http-pass') }] }, { name: 'payments' }] },
    });
    expect(patched.status, patched.text).toBe(204);
    await runTopology(server.pool, await stored(topology.id));
    expect(await owned(topology.id)).toEqual([
      { name: 'shop-payments', deleted: true, checks: [] },
      { name: 'shop-storefront', deleted: false, checks: ['http-pass'] },
    ]);

    // Deleting the topology deletes the canaries it kept.
    const deleted = await server.call('DELETE', `/api/db/topologies?id=eq.${topology.id}`, editor);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await owned(topology.id)).map((row) => [row.name, row.deleted])).toEqual([
      ['shop-payments', true],
      ['shop-storefront', true],
    ]);
  });

  it('refuses on save an inline canary with an exec check or a secret, naming the entry', async () => {
    for (const [inlineSpec, problem] of [
      [{ exec: [{ name: 'who', script: 'id' }] }, 'holds an exec check'],
      [{ http: [{ name: 'api', url: 'https://api.example.test', headers: { Authorization: 'Bearer s3cret-token' } }] }, 'holds a secret'],
    ] as const) {
      const reply = await server.call('POST', '/api/db/topologies', editor, { name: 'refused-inline', spec: { components: [{ name: 'a', checks: [{ inline: inlineSpec }] }] } });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.text).toContain('spec.components[0].checks[0].inline');
      expect(reply.text).toContain(problem);
    }
  });
});
