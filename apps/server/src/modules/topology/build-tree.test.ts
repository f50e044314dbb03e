import { describe, expect, it } from 'vitest';
import { TOPOLOGY_MAX_COMPONENTS } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { buildTopology, LOOKUP_SELECTOR_ID } from './build-tree';
import type { CheckRow, CheckSelector, ComponentDraft, ConfigRow, ConfigSelector, TopologyRow, TopologySources } from './types';

interface FakeCheck extends CheckRow {
  namespace: string;
  labels: Record<string, string>;
  type: string;
}

function config(id: string, name: string, type: string, tags: Record<string, string>, content: unknown = {}): ConfigRow {
  return { id, name, type, config_class: type.split('::')[0] ?? null, health: 'healthy', status: null, tags, labels: {}, config: content };
}

function includes(map: Record<string, string>, wanted: Record<string, string> | undefined): boolean {
  return Object.entries(wanted ?? {}).every(([key, value]) => map[key] === value);
}

function labelPairs(selector: string | undefined): Record<string, string> {
  return Object.fromEntries((selector ?? '').split(',').filter((pair) => pair !== '').map((pair) => pair.split('=') as [string, string]));
}

/** The sources contract answered from memory, with the matching rules run-topology.ts applies in SQL. */
function fakeSources(configs: ConfigRow[], checks: FakeCheck[]): TopologySources & { configQueries: ConfigSelector[] } {
  const configQueries: ConfigSelector[] = [];
  return {
    configQueries,
    findConfigs(selector: ConfigSelector) {
      configQueries.push(selector);
      return Promise.resolve(
        configs.filter(
          (row) =>
            (selector.id === undefined || selector.id.includes(row.id)) &&
            (selector.name === undefined || selector.name === row.name) &&
            (selector.namespace === undefined || row.tags.namespace === selector.namespace) &&
            (selector.types === undefined || selector.types.includes(row.type)) &&
            includes(row.tags, selector.tags) &&
            includes(row.labels, selector.labels),
        ),
      );
    },
    findTagValues(tag: string, selector: ConfigSelector | null) {
      const values = configs.filter((row) => selector === null || includes(row.tags, selector.tags)).flatMap((row) => (row.tags[tag] === undefined ? [] : [row.tags[tag]]));
      return Promise.resolve([...new Set(values)].sort());
    },
    findChecks(selector: CheckSelector) {
      return Promise.resolve(
        checks.filter(
          (check) =>
            (selector.name === undefined || selector.name === check.name) &&
            (selector.namespace === undefined || selector.namespace === check.namespace) &&
            (selector.types === undefined || selector.types.includes(check.type)) &&
            includes(check.labels, labelPairs(selector.labelSelector)),
        ),
      );
    },
  };
}

/** A build that made one root, which it returns. */
async function buildOne(row: TopologyRow, sources: TopologySources): Promise<{ root: ComponentDraft; errors: string[] }> {
  const {
    roots: [root],
    errors,
  } = await buildTopology(row, sources);
  if (root === undefined) throw new Error('the build made no root');
  return { root, errors };
}

function topology(spec: unknown, overrides: Partial<TopologyRow> = {}): TopologyRow {
  return { id: 'topo-1', name: 'Shop', namespace: 'default', icon: 'cart', labels: { team: 'payments' }, spec, schedule: null, agent_id: null, ...overrides };
}

function flatten(draft: ComponentDraft): ComponentDraft[] {
  return [draft, ...draft.children.flatMap(flatten)];
}

function child(draft: ComponentDraft | undefined, name: string): ComponentDraft {
  const found = draft?.children.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no child ${name} under ${draft?.name ?? 'nothing'}`);
  return found;
}

const catalog = [
  config('pod-a', 'web-a', 'Kubernetes::Pod', { namespace: 'shop', cluster: 'prod' }, { status: { podIP: '10.0.0.1', containerStatuses: [{ restartCount: 3 }] } }),
  config('pod-b', 'web-b', 'Kubernetes::Pod', { namespace: 'shop', cluster: 'prod' }, { status: { podIP: '10.0.0.2', containerStatuses: [{ restartCount: 0 }] } }),
  config('pod-x', 'other', 'Kubernetes::Pod', { namespace: 'kube-system', cluster: 'prod' }),
  config('deploy-web', 'web', 'Kubernetes::Deployment', { namespace: 'shop', cluster: 'prod' }, { spec: { replicas: 2, strategy: { type: 'RollingUpdate' } } }),
  config('db', 'orders-db', 'Postgres::Database', { namespace: 'shop' }, { version: '15.4' }),
];

const checks: FakeCheck[] = [
  { id: 'chk-home', canary_id: 'can-1', name: 'shop-home', namespace: 'default', labels: { app: 'shop' }, type: 'http' },
  { id: 'chk-api', canary_id: 'can-1', name: 'shop-api', namespace: 'default', labels: { app: 'shop', tier: 'api' }, type: 'http' },
  { id: 'chk-web-a', canary_id: 'can-2', name: 'web-a', namespace: 'default', labels: {}, type: 'tcp' },
];

/** A Mission Control Topology as a team would paste it. */
const missionControl = {
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Topology',
  metadata: { name: 'shop' },
  spec: {
    type: 'App',
    schedule: '@every 5m',
    labels: { env: 'prod' },
    properties: [{ name: 'owner', text: 'payments', headline: true }],
    checks: [{ selector: { labelSelector: 'app=shop' } }],
    components: [
      {
        name: 'Frontend',
        type: 'Website',
        icon: 'globe',
        owner: 'web-team',
        checks: [{ selector: { name: 'shop-home' } }],
        configs: [{ type: 'Kubernetes::Deployment', name: 'web', tagSelector: 'namespace=shop' }],
        properties: [
          { name: 'replicas', configLookup: { config: { type: 'Kubernetes::Deployment', name: 'web' }, field: '$.spec.replicas' } },
          { name: 'strategy', configLookup: { id: 'deploy-web', field: '$.spec.strategy' } },
          { name: 'gone', configLookup: { config: { name: 'no-such-item' }, field: '$.spec' } },
        ],
        components: [
          { name: 'CDN', type: 'Service', properties: [{ name: 'hit rate', type: 'percentage', value: 97, max: 100, unit: '%' }] },
          { name: 'Database', id: 'orders-db', configs: [{ types: ['Postgres::Database'] }] },
        ],
      },
      {
        name: 'Pods',
        icon: 'pod',
        labels: { layer: 'compute' },
        lookup: { catalog: [{ name: 'pods', selector: [{ types: ['Kubernetes::Pod'], tags: { namespace: 'shop' } }] }] },
        forEach: {
          labels: { pod: '{{.name}}', where: '{{ .tags.cluster }}' },
          properties: [
            { name: 'ip', configLookup: { field: '$.status.podIP' } },
            { name: 'restarts', configLookup: { field: '$.status.containerStatuses[0].restartCount' } },
            { name: 'link', type: 'url', text: 'https://k8s.example.test/{{.id}}' },
          ],
          checks: [{ selector: { name: '{{.name}}' } }],
        },
      },
    ],
  },
};

describe('buildTopology', () => {
  it('builds a Mission Control spec: static nesting, selectors, a catalog lookup and its forEach', async () => {
    const { root, errors } = await buildOne(topology(missionControl), fakeSources(catalog, checks));
    expect(errors).toEqual([]);
    expect(root).toMatchObject({ key: 'topology:topo-1', name: 'Shop', type: 'App', icon: 'cart', labels: { team: 'payments', env: 'prod' } });
    expect(root.properties).toEqual([{ name: 'owner', text: 'payments', headline: true }]);
    expect(root.checks.map((check) => check.checkId).sort()).toEqual(['chk-api', 'chk-home']);

    const frontend = child(root, 'Frontend');
    expect(frontend).toMatchObject({ key: 'Frontend', type: 'Website', icon: 'globe', owner: 'web-team', hidden: false });
    expect(frontend.checks).toEqual([{ checkId: 'chk-home', canaryId: 'can-1', selectorId: expect.stringMatching(/^checks:/) as unknown }]);
    expect(frontend.configs.map((link) => link.configId)).toEqual(['deploy-web']);
    expect(frontend.properties).toEqual([
      { name: 'replicas', value: 2 },
      { name: 'strategy', text: '{"type":"RollingUpdate"}' },
    ]);
    expect(child(frontend, 'CDN')).toMatchObject({ key: 'Frontend/CDN', properties: [{ name: 'hit rate', type: 'percentage', value: 97, max: 100, unit: '%' }] });
    expect(child(frontend, 'Database')).toMatchObject({ key: 'orders-db', configs: [{ configId: 'db' }] });

    const pods = child(root, 'Pods');
    expect(pods.key).toBe('Pods');
    expect(pods.children.map((pod) => pod.name)).toEqual(['web-a', 'web-b']);
    const [podA] = pods.children;
    expect(podA).toMatchObject({
      key: 'config:pod-a',
      type: 'Kubernetes::Pod',
      icon: 'pod',
      labels: { namespace: 'shop', cluster: 'prod', layer: 'compute', pod: 'web-a', where: 'prod' },
      configs: [{ configId: 'pod-a', selectorId: LOOKUP_SELECTOR_ID }],
      checks: [{ checkId: 'chk-web-a', canaryId: 'can-2' }],
    });
    expect(podA?.properties).toEqual([
      { name: 'ip', text: '10.0.0.1' },
      { name: 'restarts', value: 3 },
      { name: 'link', type: 'url', text: 'https://k8s.example.test/pod-a' },
    ]);
    expect(pods.children[1]?.checks).toEqual([]);
  });

  it('moves components under the parent their parentLookup names, by name, type and namespace or by externalID, as component-with-parent-lookup.yml does', async () => {
    const spec = {
      components: [
        {
          name: 'Parent-1',
          type: 'Type1',
          components: [
            { name: 'Child-1A' },
            { name: 'Child-1C', parentLookup: { name: 'Parent-2', type: 'Type2' } },
            { name: 'Child-1D', parentLookup: { name: 'Parent-3', type: 'Type3', namespace: 'parent3-namespace' } },
            { name: 'Child-1E', parentLookup: { name: 'Parent-3', type: 'Type3' } },
          ],
        },
        { name: 'Parent-2', type: 'Type2', components: [{ name: 'Child-2A' }, { name: 'Child-2C', parentLookup: { externalID: 'parent-3-external-id' } }] },
        {
          name: 'Parent-3',
          type: 'Type3',
          namespace: 'parent3-namespace',
          externalID: 'parent-3-external-id',
          components: [
            { name: 'Stay', parentLookup: { externalID: 'parent-3-external-id' } },
            { name: 'Loop', parentLookup: { externalID: 'inner-id' }, components: [{ name: 'Inner', externalID: 'inner-id' }] },
          ],
        },
      ],
    };
    const { root, errors } = await buildOne(topology(spec), fakeSources([], []));
    const names = (draft: ComponentDraft): string[] => draft.children.map((entry) => entry.name);
    expect(names(child(root, 'Parent-1'))).toEqual(['Child-1A', 'Child-1E']);
    expect(names(child(root, 'Parent-2'))).toEqual(['Child-2A', 'Child-1C']);
    expect(names(child(root, 'Parent-3'))).toEqual(['Stay', 'Loop', 'Child-1D', 'Child-2C']);
    // A moved component keeps the key it was built with, so its id survives the move.
    expect(child(child(root, 'Parent-2'), 'Child-1C').key).toBe('Parent-1/Child-1C');
    expect(errors).toEqual([
      'Child-1E: parentLookup found no component Parent-3 / Type3 in this topology; it stays under Parent-1',
      'Loop: parentLookup names inner-id, which is the component itself or below it; it stays under Parent-3',
    ]);
  });

  it('shows a configLookup display written in CEL, a Go template or sandboxed JavaScript over the item, as component-with-properties.yml does', async () => {
    const item = config('cfg-1', 'config-item', 'Config::Dummy', { 'tag-1': 'a' }, { spec: { container: { version: 'v1.2.3', replicas: 3 } } });
    const lookup = (display: Record<string, unknown>) => ({ config: { name: 'config-item', type: 'Config::Dummy' }, display });
    const spec = {
      properties: [
        { name: 'js', configLookup: lookup({ javascript: 'config.spec.container.version' }) },
        { name: 'cel', configLookup: lookup({ expr: "config_type + ' ' + string(config.spec.container.replicas)" }) },
        { name: 'template', configLookup: lookup({ template: '{{ .name }}@{{ .config.spec.container.version }}' }) },
        { name: 'broken', configLookup: lookup({ javascript: 'config.nope.deeper' }) },
      ],
    };
    const { root, errors } = await buildOne(topology(spec), fakeSources([item], []));
    expect(root.properties).toEqual([
      { name: 'js', text: 'v1.2.3' },
      { name: 'cel', text: 'Config::Dummy 3' },
      { name: 'template', text: 'config-item@v1.2.3' },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Shop: property broken: display failed on config-item: display\.javascript: TypeError/);
    for (const display of [{ expr: 'config.', javascript: 'x' }, { jsonPath: '$.a' }, { expr: '1 +' }]) {
      await expect(buildTopology(topology({ properties: [{ name: 'p', configLookup: lookup(display) }] }), fakeSources([item], []))).rejects.toBeInstanceOf(AppError);
    }
    await expect(buildTopology(topology({ properties: [{ name: 'p', configLookup: { ...lookup({ expr: '1' }), field: '$.a' } }] }), fakeSources([item], []))).rejects.toBeInstanceOf(AppError);
  });

  it('keys components by their id expressions over self and properties, keeping the default for an empty or failing one', async () => {
    const spec = {
      id: { javascript: 'properties.id' },
      properties: [{ name: 'id', text: 'cluster-prod' }],
      components: [
        { name: 'nodes', id: { javascript: 'properties.zone + "/" + self.name' }, properties: [{ name: 'zone', text: 'eu-1' }], components: [{ name: 'child' }] },
        { name: 'empty', id: { expr: "''" } },
        { name: 'broken', id: { javascript: 'self.nope.deeper' } },
        { name: 'pods', lookup: { catalog: [{ types: ['Kubernetes::Pod'] }] } },
        { lookup: { catalog: [{ types: ['Kubernetes::Node'] }] }, id: { template: 'node-{{ .self.name }}' } },
      ],
    };
    const sources = fakeSources([config('p1', 'pod-1', 'Kubernetes::Pod', {}), config('n1', 'node-a', 'Kubernetes::Node', {})], []);
    const { root, errors } = await buildOne(topology(spec), sources);
    expect(root.key).toBe('cluster-prod');
    expect(child(root, 'nodes').key).toBe('eu-1/nodes');
    expect(child(child(root, 'nodes'), 'child').key).toBe('eu-1/nodes/child');
    expect(child(root, 'empty').key).toBe('empty');
    expect(child(root, 'broken').key).toBe('broken');
    expect(child(root, 'node-a').key).toBe('node-node-a');
    expect(errors).toEqual([expect.stringMatching(/^broken: id failed, the component keeps the key broken: display\.javascript: TypeError/)]);
    const withoutId = await buildOne(topology({ id: { javascript: 'properties.id' } }), sources);
    expect(withoutId.root.key).toBe('topology:topo-1');
  });

  it('refuses a parentLookup that names no parent, or a field it does not know, at save', async () => {
    for (const parentLookup of [{ type: 'Type2' }, { name: 'P', labels: { a: 'b' } }]) {
      await expect(buildTopology(topology({ components: [{ name: 'C', parentLookup }] }), fakeSources([], []))).rejects.toBeInstanceOf(AppError);
    }
  });

  it('puts the components of a lookup without a name in its place, as siblings, with its own fields', async () => {
    const spec = {
      components: [
        { name: 'Static' },
        { icon: 'db', owner: 'dba', properties: [{ name: 'version', configLookup: { field: '$.version' } }], lookup: { catalog: [{ types: ['Postgres::Database'] }] } },
      ],
    };
    const { root } = await buildOne(topology(spec), fakeSources(catalog, checks));
    expect(root.children.map((entry) => entry.name)).toEqual(['Static', 'orders-db']);
    expect(root.children[1]).toMatchObject({ key: 'config:db', icon: 'db', owner: 'dba', type: 'Postgres::Database', properties: [{ name: 'version', text: '15.4' }] });
  });

  it('gives looked-up components the item type as icon when the spec names none, and forEach type and icon win', async () => {
    const spec = {
      components: [
        { lookup: { catalog: [{ name: 'orders-db' }] } },
        { name: 'Group', lookup: { catalog: [{ name: 'web' }] }, forEach: { type: 'Workload', icon: 'deploy' } },
      ],
    };
    const { root } = await buildOne(topology(spec), fakeSources(catalog, checks));
    expect(root.children[0]).toMatchObject({ name: 'orders-db', icon: 'Postgres::Database', type: 'Postgres::Database' });
    expect(child(root, 'Group').children[0]).toMatchObject({ name: 'web', icon: 'deploy', type: 'Workload' });
  });

  it('keeps keys stable across builds and unique within the tree', async () => {
    const spec = {
      components: [
        { name: 'a', components: [{ name: 'b' }] },
        { name: 'a/b' },
        { lookup: { catalog: [{ types: ['Kubernetes::Pod'], tags: { namespace: 'shop' } }] }, forEach: { components: [{ name: 'logs' }] } },
        { lookup: { catalog: [{ name: 'web-a' }] } },
      ],
    };
    const first = flatten((await buildOne(topology(spec), fakeSources(catalog, checks))).root).map((draft) => draft.key);
    const second = flatten((await buildOne(topology(spec), fakeSources([...catalog].reverse(), checks))).root).map((draft) => draft.key);
    expect(new Set(first).size).toBe(first.length);
    expect([...first].sort()).toEqual([...second].sort());
    expect(first).toEqual(['topology:topo-1', 'a', 'a/b', 'a/b#2', 'config:pod-a', 'config:pod-a/logs', 'config:pod-b', 'config:pod-b/logs', 'config:pod-a#2']);
  });

  it('substitutes only the templates it knows, as plain text, and leaves nested forEach templates to their own lookup', async () => {
    const spec = {
      components: [
        {
          lookup: { catalog: [{ name: 'web' }] },
          forEach: {
            labels: { a: '{{.type}}', b: '{{ .labels.missing }}', c: '{{.config.name}}', d: '{{ index .tags "x" }}' },
            components: [{ name: 'pods of {{.name}}', lookup: { catalog: [{ name: 'web-a' }] }, forEach: { labels: { pod: '{{.name}}' } } }],
          },
        },
      ],
    };
    const { root } = await buildOne(topology(spec), fakeSources(catalog, checks));
    const [web] = root.children;
    expect(web?.labels).toMatchObject({ a: 'Kubernetes::Deployment', b: '', c: '{{.config.name}}', d: '{{ index .tags "x" }}' });
    expect(child(web, 'pods of web').children[0]?.labels).toMatchObject({ pod: 'web-a' });
  });

  it('omits a property whose lookup matches nothing, and reports a JSONPath that fails at run', async () => {
    const items = [config('weird', '[?(@.x)]', 'App::Thing', { namespace: 'odd' }, { a: 1 })];
    const spec = {
      components: [
        {
          lookup: { catalog: [{ namespace: 'odd' }] },
          forEach: {
            properties: [
              { name: 'by name', configLookup: { field: '$.{{.name}}' } },
              { name: 'missing', configLookup: { field: '$.nope' } },
              { name: 'a', configLookup: { field: '$.a' } },
            ],
          },
        },
      ],
    };
    const { root, errors } = await buildOne(topology(spec), fakeSources(items, checks));
    expect(root.children[0]?.properties).toEqual([{ name: 'a', value: 1 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('by name');
  });

  it(`stops at ${TOPOLOGY_MAX_COMPONENTS} components and says so`, async () => {
    const many = Array.from({ length: TOPOLOGY_MAX_COMPONENTS + 500 }, (_, index) => config(`c-${index}`, `item-${index}`, 'Bulk::Item', { namespace: 'bulk' }));
    const spec = { components: [{ name: 'first' }, { lookup: { catalog: [{ types: ['Bulk::Item'] }] } }, { name: 'after' }] };
    const { root, errors } = await buildOne(topology(spec), fakeSources(many, checks));
    expect(flatten(root)).toHaveLength(TOPOLOGY_MAX_COMPONENTS);
    expect(root.children.map((entry) => entry.name)).not.toContain('after');
    expect(errors).toEqual([expect.stringContaining(String(TOPOLOGY_MAX_COMPONENTS)) as unknown]);
  });

  it('asks the sources once per distinct selector', async () => {
    const sources = fakeSources(catalog, checks);
    const spec = {
      components: [
        { name: 'a', configs: [{ name: 'web' }] },
        { name: 'b', configs: [{ name: 'web' }] },
      ],
    };
    await buildOne(topology(spec), sources);
    expect(sources.configQueries).toEqual([{ name: 'web' }]);
  });

  it('matches a class against each item after the query', async () => {
    const spec = { configs: [{ class: 'Postgres', namespace: 'shop' }] };
    const { root } = await buildOne(topology(spec), fakeSources(catalog, checks));
    expect(root.configs.map((link) => link.configId)).toEqual(['db']);
  });

  it('refuses a stored spec that breaks the save-time rules', async () => {
    await expect(buildTopology(topology({ checks: [{ inline: { exec: [{ name: 'x', script: 'echo' }] } }] }), fakeSources(catalog, checks))).rejects.toBeInstanceOf(AppError);
  });
});

describe('buildTopology with check lookups (Mission Control lookup.http, lookup.kubernetes, property lookups)', () => {
  const display = (value: unknown): Record<string, unknown> => ({ expr: `'${JSON.stringify(value)}'` });
  /** Answers each lookup by its name with the JSON `outputs` holds (a bare string is returned as written). */
  function lookupSources(outputs: Record<string, unknown>, failing: Record<string, string> = {}): TopologySources & { ran: string[] } {
    const ran: string[] = [];
    return {
      ...fakeSources([], []),
      ran,
      runLookup(_type: string, spec: Record<string, unknown>) {
        const name = String(spec.name);
        ran.push(name);
        if (name in failing) return Promise.resolve({ pass: false as const, error: failing[name] ?? '' });
        const output = outputs[name];
        return Promise.resolve({ pass: true as const, output: typeof output === 'string' ? output : JSON.stringify(output) });
      },
    };
  }

  it("makes a component of each entry a lookup's display returns, under a named parent, with forEach reading $(.component.name)", async () => {
    const spec = {
      components: [
        {
          name: 'GroupA',
          lookup: { http: [{ name: 'apps', url: 'http://127.0.0.1:9/', display: display([]) }] },
          forEach: { configs: [{ name: '$(.component.name)', type: 'Service' }], components: [{ name: 'Child-A' }], labels: { owner: '{{.component.name}}' } },
        },
      ],
    };
    const sources = lookupSources({ apps: [{ name: 'component-a', type: 'API', properties: [{ name: 'owner', text: 'team-a' }] }, { name: 'component-b', type: 'Frontend' }] });
    const { root } = await buildOne(topology(spec), sources);
    const group = root.children[0];
    expect(group?.children.map((child) => [child.name, child.type, child.labels.owner])).toEqual([
      ['component-a', 'API', 'component-a'],
      ['component-b', 'Frontend', 'component-b'],
    ]);
    expect(group?.children[0]?.properties).toEqual([{ name: 'owner', text: 'team-a' }]);
    expect(group?.children[0]?.children.map((child) => child.name)).toEqual(['Child-A']);
    expect(group?.children[0]?.key).toBe('GroupA/component-a');
  });

  it('merges a property lookup into the components of those names, adds a list of properties, and takes a bare value', async () => {
    const spec = {
      components: [
        {
          name: 'Root',
          lookup: { http: [{ name: 'components', url: 'http://127.0.0.1:9/', display: display([]) }] },
          properties: [
            { name: 'error_percentage', lookup: { http: [{ name: 'errors', url: 'http://127.0.0.1:9/', display: display([]) }] } },
            { name: 'generic', lookup: { http: [{ name: 'generic', url: 'http://127.0.0.1:9/', display: display([]) }] } },
            { name: 'key', lookup: { http: [{ name: 'value', url: 'http://127.0.0.1:9/', display: display([]) }] } },
          ],
        },
      ],
    };
    const sources = lookupSources({
      components: [{ name: 'a', properties: [{ name: 'error_percentage', min: 0, max: 100 }] }, { name: 'b' }],
      errors: [{ name: 'a', properties: [{ name: 'error_percentage', value: 10 }] }, { name: 'b', properties: [{ name: 'error_percentage', value: 50 }] }],
      generic: [{ name: 'company', text: 'Acme' }],
      value: 'value',
    });
    const { root } = await buildOne(topology(spec), sources);
    const parent = root.children[0];
    expect(parent?.children.map((child) => child.properties)).toEqual([[{ name: 'error_percentage', min: 0, max: 100, value: 10 }], [{ name: 'error_percentage', value: 50 }]]);
    expect(parent?.properties).toEqual([{ name: 'company', text: 'Acme' }, { name: 'key', text: 'value' }]);
    expect(sources.ran.filter((name) => name === 'errors')).toHaveLength(1);
  });

  it('fails the build, naming the lookup, when a lookup fails or its display is not a list of named components', async () => {
    const spec = { components: [{ lookup: { http: [{ name: 'apps', url: 'http://127.0.0.1:9/', display: display([]) }] } }] };
    await expect(buildTopology(topology(spec), lookupSources({}, { apps: 'HTTP 503' }))).rejects.toThrow(/spec\.components\[0\]\.lookup\.http\[0\]: the http lookup failed: HTTP 503/);
    await expect(buildTopology(topology(spec), lookupSources({ apps: [{ type: 'API' }] }))).rejects.toThrow(/display\[0\]: has no name/);
    await expect(buildTopology(topology(spec), lookupSources({ apps: { name: 'x' } }))).rejects.toThrow(/must return a list of components/);
    await expect(buildTopology(topology(spec), fakeSources([], []))).rejects.toThrow(/check lookups cannot run here/);
  });

  it("carries component selectors on the components that write them, and forEach's on each looked-up component with its values", async () => {
    const nodes = [config('n1', 'node-a', 'Kubernetes::Node', {}), config('n2', 'node-b', 'Kubernetes::Node', {})];
    const spec = {
      components: [
        { selectors: [{ labelSelector: 'k8s-app=kube-dns' }] },
        { name: 'Nodes', lookup: { catalog: [{ types: ['Kubernetes::Node'] }] }, forEach: { selectors: [{ labelSelector: 'node={{.name}}' }] } },
      ],
    };
    const { root } = await buildOne(topology(spec), fakeSources(nodes, []));
    const [nameless, group] = root.children;
    expect(nameless?.name).toBe('');
    expect(nameless?.selectors.map((entry) => entry.selector)).toEqual([{ labelSelector: 'k8s-app=kube-dns' }]);
    expect(group?.selectors).toEqual([]);
    expect(group?.children.map((child) => child.selectors.map((entry) => entry.selector.labelSelector))).toEqual([['node=node-a'], ['node=node-b']]);
  });

  it("builds one tree per value of groupBy's tag, each narrowed to that value, and one tree without grouping when no item carries the tag", async () => {
    const nodes = [config('n1', 'node-a', 'Kubernetes::Node', { cluster: 'eu' }), config('n2', 'node-b', 'Kubernetes::Node', { cluster: 'us' })];
    const spec = {
      groupBy: { tag: 'cluster' },
      components: [{ name: 'Nodes', selectors: [{ labelSelector: 'role=node,cluster=x' }], components: [{ lookup: { catalog: [{ selector: [{ types: ['Kubernetes::Node'] }] }] } }] }],
    };
    const { roots, errors } = await buildTopology(topology(spec), fakeSources(nodes, []));
    expect(errors).toEqual([]);
    expect(roots.map((root) => [root.name, root.key])).toEqual([
      ['Shop (eu)', 'topology:topo-1:eu'],
      ['Shop (us)', 'topology:topo-1:us'],
    ]);
    expect(roots.map((root) => root.children[0]?.children.map((node) => node.name))).toEqual([['node-a'], ['node-b']]);
    expect(roots[0]?.children[0]).toMatchObject({ key: 'topology:topo-1:eu/Nodes', selectors: [{ selector: { labelSelector: 'role=node,cluster=eu' } }] });

    const ungrouped = await buildTopology(topology({ ...spec, groupBy: { tag: 'region' } }), fakeSources(nodes, []));
    expect(ungrouped.roots.map((root) => [root.name, root.key])).toEqual([['Shop', 'topology:topo-1']]);
    expect(ungrouped.errors).toEqual(['groupBy: no live catalog item carries the tag region: built one tree without grouping']);
  });
});

describe('buildTopology with catalog lookups that carry a display or a test (canary-checker catalog checks)', () => {
  const nodes = [
    { ...config('n1', 'node-a', 'Kubernetes::Node', { cluster: 'eu' }), status: 'Ready', description: 'kubelet is posting ready status' },
    { ...config('n2', 'node-b', 'Kubernetes::Node', { cluster: 'us' }), status: 'NotReady', description: 'kubelet stopped posting node status', parent_id: 'c1' },
  ];
  const catalogDisplay = (expr: string, test: Record<string, unknown> = {}): unknown => ({
    groupBy: { tag: 'cluster' },
    components: [{ name: 'Nodes', components: [{ name: 'Nodes Component', lookup: { catalog: [{ name: '', test, display: { expr }, selector: [{ types: ['Kubernetes::Node'] }] }] } }] }],
  });

  it("makes the components the display returns over results in place of one per item, in every groupBy tree narrowed to its value", async () => {
    const expr = "dyn(results).map(r, {'name': r.name, 'icon': 'node', 'description': r.description, 'labels': {'status': r.status, 'has_parent': string(has(r.parent_id))}}).toJSON()";
    const { roots, errors } = await buildTopology(topology(catalogDisplay(expr)), fakeSources(nodes, []));
    expect(errors).toEqual([]);
    const made = roots.map((root) => child(child(root, 'Nodes'), 'Nodes Component').children);
    expect(made.map((components) => components.map((node) => [node.name, node.icon, node.description, node.labels, node.key, node.configs]))).toEqual([
      [['node-a', 'node', 'kubelet is posting ready status', { status: 'Ready', has_parent: 'false' }, 'topology:topo-1:eu/Nodes/Nodes Component/node-a', []]],
      [['node-b', 'node', 'kubelet stopped posting node status', { status: 'NotReady', has_parent: 'true' }, 'topology:topo-1:us/Nodes/Nodes Component/node-b', []]],
    ]);
  });

  it("sets the status, reason, selectors and statusExpr a display returns, as the status-expr fixture writes them, and fails on a field it does not set", async () => {
    const expr =
      "dyn(results).map(r, {'name': r.name, 'status': r.status == 'Ready' ? 'healthy' : 'unhealthy', 'status_reason': r.description, 'selectors': [{'labelSelector': 'app.kubernetes.io/instance=' + r.name}]}).toJSON()";
    const { roots, errors } = await buildTopology(topology(catalogDisplay(expr)), fakeSources(nodes, []));
    expect(errors).toEqual([]);
    const made = roots.flatMap((root) => child(child(root, 'Nodes'), 'Nodes Component').children);
    expect(made.map((node) => [node.name, node.statusExpr, node.statusReason, node.selectors.map((entry) => entry.selector)])).toEqual([
      ['node-a', '"healthy"', 'kubelet is posting ready status', [{ labelSelector: 'app.kubernetes.io/instance=node-a' }]],
      ['node-b', '"unhealthy"', 'kubelet stopped posting node status', [{ labelSelector: 'app.kubernetes.io/instance=node-b' }]],
    ]);
    const withExpr = "dyn(results).map(r, {'name': r.name, 'status': 'healthy', 'statusExpr': 'summary.unhealthy > 0 ? \"unhealthy\" : \"healthy\"'}).toJSON()";
    const decided = await buildTopology(topology(catalogDisplay(withExpr)), fakeSources(nodes, []));
    expect(child(child(decided.roots[0], 'Nodes'), 'Nodes Component').children[0]?.statusExpr).toBe('summary.unhealthy > 0 ? "unhealthy" : "healthy"');
    const unknown = "dyn(results).map(r, {'name': r.name, 'lookup': {}}).toJSON()";
    await expect(buildTopology(topology(catalogDisplay(unknown)), fakeSources(nodes, []))).rejects.toThrow(/display\[0\]: lookup is not a field a display sets on a component here/);
    const itemStatus = "dyn(results).map(r, {'name': r.name, 'status': r.status}).toJSON()";
    const kept = await buildTopology(topology(catalogDisplay(itemStatus)), fakeSources(nodes, []));
    expect(child(child(kept.roots[0], 'Nodes'), 'Nodes Component').children.map((node) => [node.statusExpr, node.statusReason])).toEqual([
      ['"unknown"', "status 'Ready' is not healthy, unhealthy, warning or unknown"],
    ]);
  });

  it('fails the build, naming the lookup, when its test is not true or its display fails', async () => {
    const expr = "dyn(results).map(r, {'name': r.name}).toJSON()";
    const failing = buildTopology(topology(catalogDisplay(expr, { expr: "results.all(r, r.status == 'Ready')" })), fakeSources(nodes, []));
    await expect(failing).rejects.toThrow(/spec\.components\[0\]\.components\[0\]\.lookup\.catalog\[0\]: the catalog lookup failed: test failed/);
    const passing = await buildTopology(topology(catalogDisplay(expr, { expr: 'size(results) == 1' })), fakeSources(nodes, []));
    expect(passing.roots).toHaveLength(2);
    await expect(buildTopology(topology(catalogDisplay('results[0].missing')), fakeSources(nodes, []))).rejects.toThrow(/catalog lookup failed: display: /);
  });
});
