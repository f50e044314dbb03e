import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWholeComponent, type TopologyResponse } from '@opsdeck/shared';
import { runTopology } from '../src/modules/topology';
import type { TopologyRow } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

interface Linked {
  selecting: string;
  selected: string;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function createTopology(name: string, spec: unknown, labels: Record<string, string> = {}): Promise<TopologyRow> {
  const row = await server.pool.query<TopologyRow>(
    `insert into topologies (name, spec, labels) values ($1, $2, $3) returning id, name, namespace, icon, labels, spec, schedule, agent_id`,
    [name, JSON.stringify(spec), JSON.stringify(labels)],
  );
  const topology = row.rows[0];
  if (topology === undefined) throw new Error('no topology');
  return topology;
}

async function run(topology: TopologyRow): Promise<void> {
  const outcome = await runTopology(server.pool, topology);
  expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
}

async function statuses(topologyId: string): Promise<Record<string, string>> {
  const rows = await server.pool.query<{ name: string; status: string }>('select name, status from components where topology_id = $1 and deleted_at is null', [topologyId]);
  return Object.fromEntries(rows.rows.map((row) => [row.name, row.status]));
}

describe('component selectors', () => {
  let viewer: string;
  let pods: TopologyRow;
  let cluster: TopologyRow;

  async function links(): Promise<Linked[]> {
    const rows = await server.pool.query<Linked>(
      `select s.name as selecting, c.name as selected from component_relationships r
         join components s on s.id = r.relationship_id join components c on c.id = r.component_id
        where s.topology_id = $1 and r.deleted_at is null and starts_with(r.selector_id, 'topology:')
        order by 1, 2`,
      [cluster.id],
    );
    return rows.rows;
  }

  async function componentId(topologyId: string, name: string): Promise<string> {
    const row = await server.pool.query<{ id: string }>('select id from components where topology_id = $1 and name = $2 and deleted_at is null', [topologyId, name]);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error(`no component ${name}`);
    return id;
  }

  beforeAll(async () => {
    viewer = await server.cookieFor('viewer');
    pods = await createTopology('pods', {
      components: [
        { name: 'coredns', type: 'Pod', labels: { 'k8s-app': 'kube-dns', suite: 'sel' } },
        { name: 'scheduler', type: 'Pod', labels: { component: 'kube-scheduler', suite: 'sel' } },
      ],
    });
    // The cluster's root carries suite=sel too: the nameless component's selector matches it, and must leave it out.
    cluster = await createTopology(
      'cluster',
      {
        components: [
          { name: 'kube-dns', selectors: [{ labelSelector: 'k8s-app=kube-dns' }] },
          { selectors: [{ labelSelector: 'suite=sel' }], type: 'aggregator' },
        ],
      },
      { suite: 'sel' },
    );
    await run(pods);
    await run(cluster);
  });

  it('links every live component a selector matches to the selecting component, never its own ancestors', async () => {
    expect(await links()).toEqual([
      { selecting: '', selected: 'coredns' },
      { selecting: '', selected: 'scheduler' },
      { selecting: 'kube-dns', selected: 'coredns' },
    ]);
    const selecting = await server.pool.query<{ name: string; is_leaf: boolean }>('select name, is_leaf from components where topology_id = $1 and parent_id is not null order by name', [cluster.id]);
    expect(selecting.rows).toEqual([
      { name: '', is_leaf: false },
      { name: 'kube-dns', is_leaf: false },
    ]);
  });

  it('lists the selected components among the children of the selecting component on the topology page', async () => {
    const root = await server.call('GET', `/api/topology?id=${await componentId(cluster.id, 'cluster')}`, viewer);
    expect(root.status, root.text).toBe(200);
    const cards = (root.json as unknown as TopologyResponse).components[0]?.components ?? [];
    const kubeDns = cards.find((card) => card.name === 'kube-dns');
    expect(kubeDns !== undefined && isWholeComponent(kubeDns) ? kubeDns.components?.map((row) => row.name) : null).toEqual(['coredns']);

    const selected = await server.call('GET', `/api/topology?id=${await componentId(cluster.id, 'kube-dns')}`, viewer);
    const answer = selected.json as unknown as TopologyResponse;
    expect(answer.components[0]?.components?.map((card) => [card.name, isWholeComponent(card) ? card.topology_id : null])).toEqual([['coredns', pods.id]]);
  });

  it('unlinks a component once it no longer matches, at the next run', async () => {
    await server.pool.query(`update components set labels = labels - 'k8s-app' where topology_id = $1 and name = 'coredns'`, [pods.id]);
    await run(cluster);
    expect(await links()).toEqual([
      { selecting: '', selected: 'coredns' },
      { selecting: '', selected: 'scheduler' },
    ]);
  });
});

describe('statusExpr', () => {
  it('sets the status its CEL gives over the summary at each run, and keeps it through check flips until the next run', async () => {
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, namespace) values ('expr', 'test') returning id`);
    const check = async (name: string, status: string): Promise<void> => {
      await server.pool.query(`insert into checks (canary_id, type, name, namespace, status) values ($1, 'http', $2, 'test', $3)`, [canary.rows[0]?.id, name, status]);
    };
    await check('expr-api', 'healthy');
    await check('expr-db', 'unhealthy');
    const topology = await createTopology('expr', {
      statusExpr: 'summary.unhealthy > 0 ? "warning" : "healthy"',
      components: [
        { name: 'api', checks: [{ selector: { name: 'expr-api' } }] },
        { name: 'db', checks: [{ selector: { name: 'expr-db' } }], statusExpr: 'summary.checks.unhealthy > 0 ? "warning" : "healthy"' },
      ],
    });
    await run(topology);
    // Without the expressions db would be unhealthy and the root with it.
    expect(await statuses(topology.id)).toEqual({ expr: 'healthy', api: 'healthy', db: 'warning' });

    await server.pool.query(`update checks set status = 'healthy' where name = 'expr-db'`);
    const between = await server.pool.query<{ status: string; summary: { checks: { healthy: number } } }>(`select status, summary from components where topology_id = $1 and name = 'db'`, [topology.id]);
    expect(between.rows[0]).toMatchObject({ status: 'warning', summary: { checks: { healthy: 1 } } });
    await run(topology);
    expect((await statuses(topology.id)).db).toBe('healthy');
  });
});

describe('groupBy', () => {
  it("builds a root per value of the catalog tag, narrowed to that value's items, and drops a group whose value is gone", async () => {
    const node = async (name: string, cluster: string): Promise<void> => {
      await server.pool.query(`insert into config_items (type, config_class, name, health, tags) values ('GroupBy::Node', 'GroupBy', $1, 'healthy', $2)`, [name, JSON.stringify({ cluster })]);
    };
    await node('gb-node-1', 'eu');
    await node('gb-node-2', 'us');
    const topology = await createTopology('clusters', {
      groupBy: { tag: 'cluster', selector: { types: ['GroupBy::Node'] } },
      components: [{ name: 'Nodes', lookup: { catalog: [{ types: ['GroupBy::Node'] }] } }],
    });
    await run(topology);
    const tree = async (): Promise<string[][]> => {
      const rows = await server.pool.query<{ name: string; parent: string | null }>(
        `select c.name, p.name as parent from components c left join components p on p.id = c.parent_id
          where c.topology_id = $1 and c.deleted_at is null`,
        [topology.id],
      );
      return rows.rows.map((row) => [row.name, row.parent ?? '']).sort((a, b) => a.join('/').localeCompare(b.join('/')));
    };
    expect(await tree()).toEqual([
      ['clusters (eu)', ''],
      ['clusters (us)', ''],
      ['gb-node-1', 'Nodes'],
      ['gb-node-2', 'Nodes'],
      ['Nodes', 'clusters (eu)'],
      ['Nodes', 'clusters (us)'],
    ]);
    const eu = await server.pool.query<{ name: string }>(
      `select c.name from components c join components g on c.path = g.id::text or c.path like g.id || '.%'
        where g.name = 'clusters (eu)' and c.deleted_at is null`,
    );
    expect(eu.rows.map((row) => row.name).sort()).toEqual(['Nodes', 'gb-node-1']);

    await server.pool.query(`update config_items set deleted_at = now() where name = 'gb-node-2'`);
    await run(topology);
    expect(await tree()).toEqual([
      ['clusters (eu)', ''],
      ['gb-node-1', 'Nodes'],
      ['Nodes', 'clusters (eu)'],
    ]);
  });
});
