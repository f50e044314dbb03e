import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runTopology } from '../src/modules/topology';
import type { TopologyRow } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

/**
 * Topologies written in the shapes canary-checker and mission-control publish (issue #32, ADR 0073), each with what
 * this server answers: saved, or refused by name. None is copied from their fixtures.
 */
interface CorpusEntry {
  name: string;
  yaml: string;
  refused?: { code: string; details: string };
}

const header = (name: string): string => `apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: ${name}\n  namespace: corpus\nspec:\n`;

const CORPUS: CorpusEntry[] = [
  {
    name: 'static-tree',
    yaml: `${header('static-tree')}  type: Website
  icon: Application
  schedule: "@every 5m"
  components:
    - name: frontend
      type: Service
      owner: web
      properties:
        - name: version
          text: "1.4"
      components:
        - name: cdn
          externalID: cdn-edge
`,
  },
  {
    name: 'configs-lookup',
    yaml: `${header('configs-lookup')}  type: Cluster
  components:
    - name: Nodes
      icon: server
      lookup:
        configs:
          - name: nodes
            selector:
              - types:
                  - Corpus::Node
      forEach:
        properties:
          - name: zone
            configLookup:
              field: $.metadata.zone
`,
  },
  {
    name: 'catalog-lookup-siblings',
    yaml: `${header('catalog-lookup-siblings')}  components:
    - lookup:
        catalog:
          - types: [Corpus::Node]
            tagSelector: zone=a
`,
  },
  {
    name: 'status-expr',
    yaml: `${header('status-expr')}  statusExpr: |
    summary.unhealthy == 0 ? "healthy" : "unhealthy"
`,
  },
  {
    name: 'component-selectors',
    yaml: `${header('component-selectors')}  components:
    - name: dns
      selectors:
        - labelSelector: app=dns
    - selectors:
        - labelSelector: tier=system
`,
  },
  {
    name: 'canary-selector',
    yaml: `${header('canary-selector')}  components:
    - name: site
      canarySelector:
        - labelSelector: canary=http
`,
    refused: { code: 'OD_TOPOLOGY_FIELD_NOT_RUN', details: 'spec.components[0].canarySelector' },
  },
  {
    name: 'catalog-display',
    yaml: `${header('catalog-display')}  components:
    - name: Nodes
      lookup:
        catalog:
          - name: ""
            test: {}
            selector: [{ types: [Corpus::Node] }]
            display:
              expr: |
                dyn(results).map(r, {'name': r.name + '-' + r.tags.zone, 'type': r.config_class, 'description': r.config.metadata.zone}).toJSON()
`,
  },
  {
    name: 'catalog-test',
    yaml: `${header('catalog-test')}  components:
    - name: Nodes
      lookup:
        catalog:
          - types: [Corpus::Node]
            test:
              expr: results.all(r, r.health == 'unhealthy')
`,
  },
  {
    name: 'catalog-transform',
    yaml: `${header('catalog-transform')}  components:
    - lookup:
        catalog:
          - types: [Corpus::Node]
            transform:
              expr: results.toJSON()
`,
    refused: { code: 'OD_TOPOLOGY_FIELD_NOT_RUN', details: 'spec.components[0].lookup.catalog[0].transform' },
  },
  {
    name: 'http-lookup',
    yaml: `${header('http-lookup')}  components:
    - name: Group
      lookup:
        http:
          - name: list
            url: http://127.0.0.1:1/components
            display:
              expr: json.items.toJSON()
`,
  },
  {
    name: 'kubernetes-lookup',
    yaml: `${header('kubernetes-lookup')}  components:
    - name: Pods
      lookup:
        kubernetes:
          - kind: Pod
            name: pods
            display:
              expr: "dyn(results).map(p, {'name': p.Object.metadata.name, 'type': 'Pod'}).toJSON()"
`,
  },
  {
    name: 'property-lookup',
    yaml: `${header('property-lookup')}  components:
    - name: Service
      properties:
        - name: errors
          lookup:
            http:
              - url: http://127.0.0.1:1/errors
`,
    refused: { code: 'OD_TOPOLOGY_SPEC', details: 'spec.components[0].properties[0].lookup.http[0].display' },
  },
  {
    name: 'inline-check',
    yaml: `${header('inline-check')}  components:
    - name: site
      checks:
        - inline:
            http:
              - name: home
                url: http://127.0.0.1:1/
`,
  },
  {
    name: 'inline-exec-check',
    yaml: `${header('inline-exec-check')}  components:
    - name: host
      checks:
        - inline:
            exec:
              - name: whoami
                script: id
`,
    refused: { code: 'OD_TOPOLOGY_SPEC', details: 'spec.components[0].checks[0].inline' },
  },
  {
    name: 'parent-lookup',
    yaml: `${header('parent-lookup')}  components:
    - name: A
      type: Group
    - name: B
      components:
        - name: C
          parentLookup:
            name: A
            type: Group
        - name: D
          parentLookup:
            externalID: nowhere
`,
  },
  {
    name: 'group-by',
    yaml: `${header('group-by')}  groupBy:
    tag: cluster
`,
  },
];

interface ComponentRow {
  name: string;
  parent: string | null;
  type: string | null;
  external_id: string | null;
  properties: Array<{ name: string; text?: string }> | null;
}

describe('a corpus of Mission Control Topology resources: saved or refused by name, and built as Mission Control builds them', () => {
  let server: TestServer;
  let editor: string;
  const previousRole = process.env.OPSDECK_ROLE;

  async function stored(name: string): Promise<TopologyRow | undefined> {
    const rows = await server.pool.query<TopologyRow>(
      `select id, name, namespace, icon, labels, spec, schedule, agent_id from topologies where name = $1 and deleted_at is null`,
      [name],
    );
    return rows.rows[0];
  }

  async function componentsOf(topologyId: string): Promise<ComponentRow[]> {
    const rows = await server.pool.query<ComponentRow>(
      `select c.name, p.name as parent, c.type, c.external_id, c.properties
         from components c left join components p on p.id = c.parent_id
        where c.topology_id = $1 and c.deleted_at is null order by c.name`,
      [topologyId],
    );
    return rows.rows;
  }

  beforeAll(async () => {
    // The api role starts no scheduler, so only the runs this test asks for build anything.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    for (const [name, zone] of [
      ['node-1', 'a'],
      ['node-2', 'b'],
    ] as const) {
      await server.pool.query(
        `insert into config_items (type, config_class, name, health, tags, config) values ('Corpus::Node', 'Corpus', $1, 'healthy', $2, $3)`,
        [name, JSON.stringify({ zone }), JSON.stringify({ metadata: { zone } })],
      );
    }
  });

  afterAll(async () => {
    if (previousRole === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_ROLE');
    else process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it('saves every resource this server runs and refuses every other one with the code and the field', async () => {
    for (const entry of CORPUS) {
      const reply = await server.call('POST', '/api/db/topologies', editor, { spec: parse(entry.yaml) as unknown });
      if (entry.refused === undefined) {
        expect(reply.status, `${entry.name}: ${reply.text}`).toBe(201);
      } else {
        expect(reply.status, entry.name).toBe(400);
        expect(reply.json, entry.name).toMatchObject(entry.refused);
        expect(typeof reply.json.hint, entry.name).toBe('string');
        expect(await stored(entry.name), entry.name).toBeUndefined();
      }
    }
  });

  it('attaches the checks of an inline canary, which the topology keeps as a canary of its own', async () => {
    const topology = await stored('inline-check');
    if (topology === undefined) throw new Error('inline-check was not saved');
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    const attached = await server.pool.query<{ component: string; check: string; canary: string }>(
      `select c.name as component, k.name as "check", n.name as canary
         from check_component_relationships r join components c on c.id = r.component_id join checks k on k.id = r.check_id join canaries n on n.id = k.canary_id
        where c.topology_id = $1 and r.deleted_at is null`,
      [topology.id],
    );
    expect(attached.rows).toEqual([{ component: 'site', check: 'home', canary: 'inline-check-site' }]);
  });

  it('builds a static tree as written', async () => {
    const topology = await stored('static-tree');
    if (topology === undefined) throw new Error('static-tree was not saved');
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    expect((await componentsOf(topology.id)).map((row) => [row.name, row.parent, row.type])).toEqual([
      ['cdn', 'frontend', null],
      ['frontend', 'static-tree', 'Service'],
      ['static-tree', null, 'Website'],
    ]);
  });

  it('makes one component per catalog item a configs lookup finds, under its named parent, with forEach properties read from the item', async () => {
    const topology = await stored('configs-lookup');
    if (topology === undefined) throw new Error('configs-lookup was not saved');
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    const rows = await componentsOf(topology.id);
    const nodes = rows.filter((row) => row.parent === 'Nodes');
    expect(nodes.map((row) => [row.name, row.type])).toEqual([
      ['node-1', 'Corpus::Node'],
      ['node-2', 'Corpus::Node'],
    ]);
    expect(nodes.map((row) => row.properties?.find((property) => property.name === 'zone')?.text)).toEqual(['a', 'b']);
  });

  it('moves a component under the parent its parentLookup names, and records the one whose parent is not there', async () => {
    const topology = await stored('parent-lookup');
    if (topology === undefined) throw new Error('parent-lookup was not saved');
    const outcome = await runTopology(server.pool, topology);
    expect(outcome.status).toBe('WARNING');
    expect(JSON.stringify(outcome)).toContain('D: parentLookup found no component nowhere in this topology; it stays under B');
    expect((await componentsOf(topology.id)).map((row) => [row.name, row.parent])).toEqual([
      ['A', 'parent-lookup'],
      ['B', 'parent-lookup'],
      ['C', 'A'],
      ['D', 'B'],
      ['parent-lookup', null],
    ]);
  });

  it('puts the items of an unnamed catalog lookup in its place, filtered by tag', async () => {
    const topology = await stored('catalog-lookup-siblings');
    if (topology === undefined) throw new Error('catalog-lookup-siblings was not saved');
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    expect((await componentsOf(topology.id)).map((row) => [row.name, row.parent])).toEqual([
      ['catalog-lookup-siblings', null],
      ['node-1', 'catalog-lookup-siblings'],
    ]);
  });

  it("makes the components a catalog lookup's display returns over the items in place of one per item, and fails the run whose test is not true", async () => {
    const topology = await stored('catalog-display');
    if (topology === undefined) throw new Error('catalog-display was not saved');
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    const made = (await componentsOf(topology.id)).filter((row) => row.parent === 'Nodes');
    expect(made.map((row) => [row.name, row.type])).toEqual([
      ['node-1-a', 'Corpus'],
      ['node-2-b', 'Corpus'],
    ]);
    const tested = await stored('catalog-test');
    if (tested === undefined) throw new Error('catalog-test was not saved');
    const outcome = await runTopology(server.pool, tested);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errors).toEqual(['spec.components[0].lookup.catalog[0]: the catalog lookup failed: test failed']);
    expect(await componentsOf(tested.id)).toEqual([]);
  });

  it('fails the run of a spec stored before the rules, naming the refused field, and leaves its components as they were', async () => {
    const topology = await stored('static-tree');
    if (topology === undefined) throw new Error('static-tree was not saved');
    const before = await componentsOf(topology.id);
    await server.pool.query(`update topologies set spec = $2 where id = $1`, [topology.id, JSON.stringify({ components: [{ name: 'x', healthExpr: 'true' }] })]);
    const changed = await stored('static-tree');
    if (changed === undefined) throw new Error('static-tree went away');
    const outcome = await runTopology(server.pool, changed);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errors.join('\n')).toContain('spec.components[0].healthExpr');
    expect(await componentsOf(topology.id)).toEqual(before);
  });
});
