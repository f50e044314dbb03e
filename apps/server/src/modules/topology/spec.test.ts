import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { parseTopologySpec } from './spec';

const NOT_RUN = 'OD_TOPOLOGY_FIELD_NOT_RUN';

function refusal(spec: unknown): { code: string; details: string | null; hint: string | null; message: string } {
  try {
    parseTopologySpec(spec);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, details: error.details, hint: error.hint, message: error.message };
    throw error;
  }
  throw new Error('the spec was accepted');
}

function nested(depth: number): Record<string, unknown> {
  let component: Record<string, unknown> = { name: `level-${depth}` };
  for (let level = depth - 1; level >= 1; level -= 1) component = { name: `level-${level}`, components: [component] };
  return { components: [component] };
}

const spec = {
  type: 'App',
  icon: 'shop',
  schedule: '@every 5m',
  labels: { team: 'payments' },
  components: [
    {
      name: 'Frontend',
      type: 'Website',
      checks: [{ selector: { name: 'shop-home', labelSelector: 'app=shop' } }],
      configs: [{ type: 'Kubernetes::Deployment', types: ['Kubernetes::StatefulSet'], class: 'Kubernetes', tagSelector: 'namespace=shop,cluster=prod', tags: { zone: 'a' }, labelSelector: 'app=web' }],
    },
  ],
};

describe('parseTopologySpec', () => {
  it('reads the spec alone, with no metadata', () => {
    const parsed = parseTopologySpec(spec);
    expect(parsed.metadata).toBeNull();
    expect(parsed.schedule).toBe('@every 5m');
    expect(parsed.root).toMatchObject({ type: 'App', icon: 'shop', labels: { team: 'payments' } });
    expect(parsed.root.components.map((component) => component.name)).toEqual(['Frontend']);
  });

  it('reads the whole resource the same way and keeps its metadata', () => {
    const parsed = parseTopologySpec({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Topology',
      metadata: { name: 'shop', namespace: 'prod', labels: { team: 'payments' } },
      spec,
    });
    expect(parsed.metadata).toEqual({ name: 'shop', namespace: 'prod', labels: { team: 'payments' } });
    expect(parsed.root).toEqual(parseTopologySpec(spec).root);
    expect(parseTopologySpec({ kind: 'SystemTemplate', spec: {} }).metadata).toEqual({});
  });

  it('folds type into types, tags and tagSelector into tags and labelSelector into labels', () => {
    const [frontend] = parseTopologySpec(spec).root.components;
    expect(frontend?.configs).toEqual([
      {
        types: ['Kubernetes::Deployment', 'Kubernetes::StatefulSet'],
        classes: ['Kubernetes'],
        tags: { zone: 'a', namespace: 'shop', cluster: 'prod' },
        labels: { app: 'web' },
      },
    ]);
    expect(frontend?.checks).toEqual([{ name: 'shop-home', labelSelector: 'app=shop' }]);
    expect(parseTopologySpec({ checks: [{ selector: { labelSelector: 'app=shop, canary' } }] }).root.checks).toEqual([{ labelSelector: 'app=shop, canary' }]);
  });

  it('reads check lookups with their display, naming an unnamed one after its type, and property lookups', () => {
    const parsed = parseTopologySpec({
      components: [
        {
          name: 'configs',
          lookup: { kubernetes: [{ kind: 'ConfigMap', display: { expr: "dyn(results).map(c, {'name': c.Object.metadata.name}).toJSON()" } }] },
          properties: [{ name: 'owner', lookup: { http: [{ name: 'owners', url: 'https://owners.example.test', display: { expr: 'json.toJSON()' } }] } }],
        },
      ],
    });
    const [component] = parsed.root.components;
    expect(component?.lookup).toEqual([]);
    expect(component?.lookupChecks).toEqual([
      { type: 'kubernetes', at: 'spec.components[0].lookup.kubernetes[0]', spec: { kind: 'ConfigMap', name: 'kubernetes-lookup', display: { expr: "dyn(results).map(c, {'name': c.Object.metadata.name}).toJSON()" } } },
    ]);
    expect(component?.properties[0]?.lookup?.[0]?.spec.name).toBe('owners');
  });

  it("reads a catalog lookup from selector lists, single selectors, fields on the entry and Mission Control's configs spelling", () => {
    const parsed = parseTopologySpec({
      components: [
        {
          lookup: {
            catalog: [{ name: 'pods', selector: [{ type: 'Kubernetes::Pod' }, { name: 'a' }] }, { selector: { id: 'x' } }],
            configs: [{ types: ['Kubernetes::Node'] }],
          },
          forEach: { properties: [{ name: 'ip', configLookup: { field: '$.status.podIP' } }] },
        },
      ],
    });
    const [lookup] = parsed.root.components;
    expect(lookup?.name).toBeUndefined();
    expect(lookup?.lookup).toEqual([{ types: ['Kubernetes::Pod'] }, { name: 'a' }, { id: ['x'] }, { types: ['Kubernetes::Node'] }]);
    expect(lookup?.forEach?.properties).toEqual([{ property: { name: 'ip' }, configLookup: { selector: null, field: '$.status.podIP' }, lookup: null }]);
  });

  it('reads a catalog lookup display and test apart from the one-per-item selectors, an empty test as none', () => {
    const display = { expr: "dyn(results).map(r, {'name': r.name}).toJSON()" };
    const parsed = parseTopologySpec({
      components: [
        {
          lookup: {
            catalog: [
              { name: '', test: {}, display, selector: [{ types: ['Kubernetes::Node'] }] },
              { types: ['Kubernetes::Pod'], test: { expr: 'size(results) > 0' } },
            ],
          },
        },
      ],
    });
    const [lookup] = parsed.root.components;
    expect(lookup?.lookup).toEqual([{ types: ['Kubernetes::Pod'] }]);
    expect(lookup?.catalogChecks).toEqual([
      { selectors: [{ types: ['Kubernetes::Node'] }], display, test: null, at: 'spec.components[0].lookup.catalog[0]' },
      { selectors: [{ types: ['Kubernetes::Pod'] }], display: null, test: { expr: 'size(results) > 0' }, at: 'spec.components[0].lookup.catalog[1]' },
    ]);
  });

  it('merges label into labels', () => {
    const parsed = parseTopologySpec({ label: 'env=prod', labels: { team: 'payments' }, components: [{ name: 'a' }] });
    expect(parsed.root.labels).toEqual({ env: 'prod', team: 'payments' });
    expect(parsed.root.components[0]?.key).toBeUndefined();
  });

  it('treats a field set to null as left out', () => {
    expect(parseTopologySpec({ components: [{ name: 'a', statusExpr: null, tooltip: null }] }).root.components).toHaveLength(1);
  });

  it('refuses by name, with what to write instead, every field it does not run and every field it does not know', () => {
    const cases: Array<{ spec: unknown; details: string; hint: RegExp }> = [
      ...['canarySelector', 'relationships', 'logs', 'summary', 'healthExpr', 'tooltip', 'order', 'health', 'configID'].map((field) => ({
        spec: { components: [{ name: 'a', [field]: field === 'order' ? 2 : 'x' }] },
        details: `spec.components[0].${field}`,
        hint: /\w/,
      })),
      { spec: { components: [{ name: 'a', display: { expr: 'x' } }] }, details: 'spec.components[0].display', hint: /fields that run here: name, id/ },
      { spec: { components: [{ name: 'a', futureField: 1 }] }, details: 'spec.components[0].futureField', hint: /fields that run here/ },
      { spec: { groupBy: { tag: 'cluster', order: 'desc' } }, details: 'spec.groupBy.order', hint: /fields that run here: tag, selector/ },
      { spec: { components: [{ lookup: { catalog: [{ types: ['A'], transform: { expr: 'x' } }] } }] }, details: 'spec.components[0].lookup.catalog[0].transform', hint: /display/ },
      { spec: { components: [{ lookup: { configs: [{ name: 'x', selector: { types: ['A'] }, transform: { expr: 'x' } }] } }] }, details: 'spec.components[0].lookup.configs[0].transform', hint: /display/ },
      { spec: { properties: [{ name: 'p', configLookup: { id: 'x', display: { template: 'x' }, displayAs: 'x' } }] }, details: 'spec.properties[0].configLookup.displayAs', hint: /fields that run here/ },
      { spec: { properties: [{ name: 'p', summary: { template: 'x' } }] }, details: 'spec.properties[0].summary', hint: /text/ },
      { spec: { properties: [{ name: 'p', links: [{ url: 'https://x.test', target: '_blank' }] }] }, details: 'spec.properties[0].links[0].target', hint: /url/ },
      { spec: { configs: [{ search: 'x' }] }, details: 'spec.configs[0].search', hint: /tagSelector/ },
      { spec: { checks: [{ selector: { name: 'x', statuses: ['healthy'] } }] }, details: 'spec.checks[0].selector.statuses', hint: /labelSelector/ },
      { spec: { components: [{ lookup: { catalog: [{ name: 'x' }] }, forEach: { relationships: [{ ref: 'x' }] } }] }, details: 'spec.components[0].forEach.relationships', hint: /forEach.components/ },
      { spec: { components: [{ name: 'a', selectors: [{ fieldSelector: 'type=Pod' }] }] }, details: 'spec.components[0].selectors[0].fieldSelector', hint: /types and statuses/ },
      { spec: { components: [{ name: 'a', selectors: [{ name: 'x', tagSelector: 'a=b' }] }] }, details: 'spec.components[0].selectors[0].tagSelector', hint: /labelSelector/ },
      { spec: { components: [{ name: 'a', canarySelector: [{ labelSelector: 'canary=http' }] }] }, details: 'spec.components[0].canarySelector', hint: /no longer has .*checks: \[\{selector/ },
      { spec: { components: [{ lookup: { mssql: [{ query: 'select 1' }] } }] }, details: 'spec.components[0].lookup.mssql', hint: /catalog/ },
      { spec: { components: [{ lookup: { sql: [{ query: 'select 1' }] } }] }, details: 'spec.components[0].lookup.sql', hint: /catalog/ },
      { spec: { components: [{ lookup: { exec: [{ script: 'rm -rf /' }] } }] }, details: 'spec.components[0].lookup.exec', hint: /never run commands/ },
    ];
    for (const { spec: value, details, hint } of cases) {
      const refused = refusal(value);
      expect(refused.code, details).toBe('OD_TOPOLOGY_FIELD_NOT_RUN');
      expect(refused.details, details).toBe(details);
      expect(refused.message, details).toContain(details);
      expect(refused.hint, details).toMatch(hint);
    }
    for (const [value, details] of [
      [{ id: { jsonPath: 'x' } }, 'spec.id'],
      [{ components: [{ name: 'a', id: { expr: 'x', javascript: 'y' } }] }, 'spec.components[0].id'],
      [{ components: [{ name: 'a', id: { expr: '1 +' } }] }, 'spec.components[0].id'],
    ] as const) {
      const refused = refusal(value);
      expect(refused.code, details).toBe('OD_TOPOLOGY_SPEC');
      expect(refused.details, details).toBe(details);
      expect(refused.hint, details).toMatch(/self and properties/);
    }
  });

  it('reads component selectors, in components and forEach, with the agent Mission Control reads from an empty one', () => {
    const parsed = parseTopologySpec({
      components: [
        { name: 'dns', selectors: [{ labelSelector: 'k8s-app=kube-dns' }, { types: 'Pod', statuses: ['unhealthy'], agent: 'all' }] },
        { lookup: { catalog: [{ types: ['Kubernetes::Node'] }] }, forEach: { selectors: [{ labelSelector: 'node={{.name}}' }] } },
      ],
    });
    expect(parsed.root.components[0]?.selectors).toEqual([{ labelSelector: 'k8s-app=kube-dns' }, { types: ['Pod'], statuses: ['unhealthy'], agent: null }]);
    expect(parsed.root.components[1]?.forEach?.selectors).toEqual([{ labelSelector: 'node={{.name}}' }]);
    for (const [selector, details] of [
      [{ statuses: ['down'] }, 'spec.components[0].selectors[0].statuses'],
      [{ name: 'x', agent: 'remote-1' }, 'spec.components[0].selectors[0].agent'],
      [{ agent: 'all' }, 'spec.components[0].selectors[0]'],
    ] as const) {
      expect(refusal({ components: [{ name: 'a', selectors: [selector] }] })).toMatchObject({ code: 'OD_TOPOLOGY_SPEC', details });
    }
  });

  it('keeps a component written without a name, or with an empty one, nameless as canary-checker stores it', () => {
    const parsed = parseTopologySpec({ components: [{ selectors: [{ labelSelector: 'namespace=kube-system' }] }, { name: '', type: 'aggregator' }, { name: 'a' }] });
    expect(parsed.root.components.map((component) => component.name)).toEqual(['', '', 'a']);
    expect(parseTopologySpec({ components: [{ name: '', lookup: { catalog: [{ types: ['A'] }] } }] }).root.components[0]?.name).toBeUndefined();
  });

  it("reads groupBy's tag and catalog selector, and refuses a groupBy without a tag", () => {
    expect(parseTopologySpec({ groupBy: { tag: 'cluster', selector: { types: ['Kubernetes::Node'] } } }).groupBy).toEqual({ tag: 'cluster', selector: { types: ['Kubernetes::Node'] } });
    expect(parseTopologySpec({}).groupBy).toBeNull();
    expect(refusal({ groupBy: { selector: { types: ['A'] } } })).toMatchObject({ code: 'OD_TOPOLOGY_SPEC', details: 'spec.groupBy.tag' });
  });

  it('takes an empty spec as a root without children', () => {
    expect(parseTopologySpec({}).root.components).toEqual([]);
    expect(parseTopologySpec(null).schedule).toBeNull();
  });

  it('accepts nesting ten levels deep', () => {
    expect(() => parseTopologySpec(nested(10))).not.toThrow();
    expect(() => parseTopologySpec({ components: [{ name: 'a', components: [{ name: 'b', lookup: { catalog: [{ name: 'x' }] }, forEach: nested(7) }] }] })).not.toThrow();
  });

  it('refuses every spec it will not run, naming the field', () => {
    const cases: Array<{ label: string; spec: unknown; details: string; hint?: RegExp; code?: string }> = [
      { label: 'a spec that is not an object', spec: 'components: []', details: 'spec' },
      { label: 'components that is not a list', spec: { components: { name: 'a' } }, details: 'spec.components' },
      { label: 'a name over 255 characters', spec: { components: [{ name: 'n'.repeat(256) }] }, details: 'spec.components[0].name' },
      { label: 'a label that is not text', spec: { components: [{ name: 'a', labels: { replicas: 3 } }] }, details: 'spec.components[0].labels.replicas' },
      { label: 'labels that are not a map', spec: { labels: ['a'] }, details: 'spec.labels' },
      { label: 'a type that is not text', spec: { components: [{ name: 'a', type: 3 }] }, details: 'spec.components[0].type' },
      { label: 'hidden that is not a flag', spec: { components: [{ name: 'a', hidden: 'yes' }] }, details: 'spec.components[0].hidden' },
      { label: 'a property without a name', spec: { properties: [{ text: 'x' }] }, details: 'spec.properties[0].name' },
      { label: 'a property value that is not a number', spec: { properties: [{ name: 'p', value: '3' }] }, details: 'spec.properties[0].value' },
      { label: 'a property link without url', spec: { properties: [{ name: 'p', links: [{ text: 'x' }] }] }, details: 'spec.properties[0].links[0].url' },
      { label: 'a property lookup of a kind not run', spec: { properties: [{ name: 'p', lookup: { exec: [{ script: 'id' }] } }] }, details: 'spec.properties[0].lookup.exec', hint: /never run commands/, code: NOT_RUN },
      { label: 'a catalog lookup display that is not CEL', spec: { components: [{ lookup: { catalog: [{ types: ['A'], display: { expr: 'results.map(' } }] } }] }, details: 'spec.components[0].lookup.catalog[0].display', hint: /toJSON/ },
      { label: 'a catalog lookup test with a key that is no form', spec: { components: [{ lookup: { catalog: [{ types: ['A'], test: { expr: '', when: '' } }] } }] }, details: 'spec.components[0].lookup.catalog[0].test', hint: /results/ },
      { label: 'a catalog lookup test in two forms', spec: { components: [{ lookup: { catalog: [{ types: ['A'], test: { expr: 'true', template: 'x' } }] } }] }, details: 'spec.components[0].lookup.catalog[0].test', hint: /results/ },
      { label: 'a check lookup without display', spec: { components: [{ lookup: { http: [{ url: 'http://x.test' }] } }] }, details: 'spec.components[0].lookup.http[0].display', hint: /toJSON/ },
      { label: 'a catalog lookup for a property', spec: { properties: [{ name: 'p', lookup: { catalog: [{ types: ['A'] }] } }] }, details: 'spec.properties[0].lookup.catalog', hint: /configLookup/ },
      {
        label: 'a check lookup holding a secret',
        spec: { components: [{ lookup: { http: [{ url: 'http://x.test', headers: [{ name: 'Authorization', value: 'Bearer t' }], display: { expr: '[].toJSON()' } }] } }] },
        details: 'spec.components[0].lookup.http[0]',
        hint: /connection/,
      },
      { label: 'a check lookup the canary rules refuse', spec: { components: [{ lookup: { http: [{ url: 'http://x.test', ntlm: true, display: { expr: '[]' } }] } }] }, details: 'spec.components[0].lookup.http[0]' },
      { label: 'an inline exec check', spec: { components: [{ name: 'a', checks: [{ inline: { exec: [{ name: 'x', script: 'id' }] } }] }] }, details: 'spec.components[0].checks[0].inline', hint: /canary of its own/ },
      {
        label: 'an inline check with a secret',
        spec: { checks: [{ inline: { http: [{ name: 'x', url: 'https://a.test', authentication: { username: 'u', password: 'p4ss' } }] } }] },
        details: 'spec.checks[0].inline',
        hint: /sealed/,
      },
      { label: 'an inline canary that is not one', spec: { checks: [{ inline: { http: [{ url: 'https://a.test' }] } }] }, details: 'spec.checks[0].inline' },
      { label: 'an inline canary with no check', spec: { checks: [{ inline: { schedule: '@every 1m' } }] }, details: 'spec.checks[0].inline' },
      {
        label: 'an inline canary inside forEach',
        spec: { components: [{ lookup: { catalog: [{ types: ['A'] }] }, forEach: { checks: [{ inline: { http: [{ name: 'x', url: 'https://a.test' }] } }] } }] },
        details: 'spec.components[0].forEach.checks[0].inline',
      },
      { label: 'a check with neither selector nor inline', spec: { checks: [{}] }, details: 'spec.checks[0].selector' },
      { label: 'a check selector without a field', spec: { components: [{ name: 'a', checks: [{ selector: {} }] }] }, details: 'spec.components[0].checks[0].selector' },
      { label: 'a check label selector that is not key=value', spec: { checks: [{ selector: { labelSelector: 'app in (a,b)' } }] }, details: 'spec.checks[0].selector.labelSelector' },
      { label: 'a config selector without a field', spec: { configs: [{}] }, details: 'spec.configs[0]' },
      { label: 'a config selector by class alone', spec: { configs: [{ class: 'Kubernetes' }] }, details: 'spec.configs[0]' },
      { label: 'a tag selector with !=', spec: { configs: [{ tagSelector: 'env!=prod' }] }, details: 'spec.configs[0].tagSelector' },
      { label: 'a configDB lookup', spec: { components: [{ name: 'a', lookup: { configDB: [{ query: 'x' }] } }] }, details: 'spec.components[0].lookup.configDB', hint: /catalog/, code: NOT_RUN },
      { label: 'an exec lookup next to a catalog one', spec: { components: [{ lookup: { catalog: [{ name: 'x' }], exec: [{ script: 'rm' }] } }] }, details: 'spec.components[0].lookup.exec', code: NOT_RUN },
      { label: 'an empty catalog lookup', spec: { components: [{ lookup: { catalog: [] } }] }, details: 'spec.components[0].lookup.catalog' },
      { label: 'a lookup selector without a field', spec: { components: [{ lookup: { catalog: [{ selector: [{}] }] } }] }, details: 'spec.components[0].lookup.catalog[0].selector[0]' },
      { label: 'forEach without lookup', spec: { components: [{ name: 'a', forEach: { type: 'x' } }] }, details: 'spec.components[0].forEach' },
      {
        label: 'a configLookup without config outside forEach',
        spec: { components: [{ name: 'a', properties: [{ name: 'p', configLookup: { field: '$.a' } }] }] },
        details: 'spec.components[0].properties[0].configLookup.config',
      },
      {
        label: 'a JSONPath filter',
        spec: { components: [{ lookup: { catalog: [{ name: 'x' }] }, forEach: { properties: [{ name: 'p', configLookup: { field: '$.a[?(@.b==1)]' } }] } }] },
        details: 'spec.components[0].forEach.properties[0].configLookup.field',
      },
      { label: 'a JSONPath that does not parse', spec: { properties: [{ name: 'p', configLookup: { id: 'x', field: '$.a[' } }] }, details: 'spec.properties[0].configLookup.field' },
      { label: 'duplicate sibling names', spec: { components: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }, details: 'spec.components[2].name' },
      { label: 'duplicate ids', spec: { components: [{ name: 'a', id: 'x' }, { name: 'b', components: [{ name: 'c', externalID: 'x' }] }] }, details: 'spec.components[1].components[0].externalID' },
      { label: 'nesting eleven levels deep', spec: nested(11), details: `spec${'.components[0]'.repeat(11)}` },
      {
        label: 'looked-up children eleven levels deep',
        // a (1) > b, a grouping parent (2) > its looked-up items (3) > forEach children (4 and on).
        spec: { components: [{ name: 'a', components: [{ name: 'b', lookup: { catalog: [{ name: 'x' }] }, forEach: nested(8) }] }] },
        details: `spec.components[0].components[0].forEach${'.components[0]'.repeat(8)}`,
      },
      { label: 'a schedule that does not parse', spec: { schedule: '@every never' }, details: 'spec.schedule' },
      { label: 'a metadata name that is not text', spec: { kind: 'Topology', metadata: { name: 3 }, spec: {} }, details: 'metadata.name' },
    ];
    for (const { label, spec: value, details, hint, code } of cases) {
      const refused = refusal(value);
      expect(refused.code, label).toBe(code ?? 'OD_TOPOLOGY_SPEC');
      expect(refused.details, label).toBe(details);
      expect(refused.message, label).toContain(details);
      expect(refused.hint, label).not.toBeNull();
      if (hint !== undefined) expect(refused.hint, label).toMatch(hint);
    }
  });
});
