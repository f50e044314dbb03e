import { describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { topologySpecJsonSchema, type TopologyResource } from './topology-spec';

function validate(value: unknown): string[] {
  const validator = new Validator(JSON.parse(JSON.stringify(topologySpecJsonSchema)) as Schema, '2020-12', false);
  return validator.validate(value).errors.map((error) => `${error.instanceLocation} ${error.error}`);
}

/** Every $def and property of the schema, with the path it sits at. */
function schemaNodes(value: unknown, at: string, found: Array<{ at: string; node: Record<string, unknown> }>): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const node = value as Record<string, unknown>;
  for (const group of ['$defs', 'properties'] as const) {
    const children = node[group];
    if (typeof children !== 'object' || children === null) continue;
    for (const [key, child] of Object.entries(children)) {
      if (typeof child === 'object' && child !== null) found.push({ at: `${at}.${key}`, node: child as Record<string, unknown> });
      schemaNodes(child, `${at}.${key}`, found);
    }
  }
}

const missionControl: TopologyResource = {
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Topology',
  metadata: { name: 'shop', namespace: 'prod', labels: { team: 'payments' } },
  spec: {
    type: 'App',
    icon: 'shop',
    schedule: '@every 5m',
    properties: [{ name: 'owner', text: 'payments', headline: true, links: [{ url: 'https://wiki.example.test/shop', text: 'Wiki' }] }],
    checks: [{ selector: { labelSelector: 'app=shop' } }],
    components: [
      {
        name: 'Frontend',
        type: 'Website',
        owner: 'web',
        lifecycle: 'production',
        labels: { tier: 'web' },
        checks: [{ selector: { name: 'shop-home' } }],
        configs: [{ type: 'Kubernetes::Deployment', name: 'shop-web', tagSelector: 'namespace=shop' }],
        components: [{ name: 'CDN', id: 'cdn', properties: [{ name: 'hit rate', type: 'percentage', value: 97, max: 100, unit: '%' }] }],
      },
      {
        name: 'Pods',
        icon: 'pod',
        lookup: { configs: [{ name: 'pods', selector: [{ types: ['Kubernetes::Pod'], tags: { namespace: 'shop' } }] }] },
        forEach: {
          labels: { pod: '{{.name}}' },
          properties: [{ name: 'restarts', configLookup: { field: '$.status.containerStatuses[0].restartCount' } }],
          checks: [{ selector: { name: '{{.name}}' } }],
        },
      },
    ],
  },
};

describe('topology spec JSON schema', () => {
  it('accepts a Mission Control Topology resource whose every field runs, with configs as the lookup spelling', () => {
    expect(validate(missionControl)).toEqual([]);
  });

  it('accepts the spec alone as well as the whole resource', () => {
    expect(validate(missionControl.spec)).toEqual([]);
    expect(validate({ ...missionControl, kind: 'SystemTemplate' })).toEqual([]);
  });

  it('refuses each Mission Control field this server does not run, by its location', () => {
    const refusedAt = (value: unknown): string => validate(value).join('\n');
    expect(refusedAt({ id: { jsonPath: 'x' } })).toContain('/id');
    expect(refusedAt({ groupBy: { selector: { types: ['A'] } } })).toContain('/groupBy');
    expect(refusedAt({ components: [{ name: 'a', selectors: [{ fieldSelector: 'type=Pod' }] }] })).toContain('/components/0/selectors/0/fieldSelector');
    expect(validate({ groupBy: { tag: 'cluster' }, statusExpr: 'summary.healthy > 0 ? "healthy" : "unknown"', components: [{ name: 'a', selectors: [{ labelSelector: 'app=dns' }] }] })).toEqual([]);
    for (const field of ['canarySelector', 'relationships', 'logs', 'summary', 'healthExpr', 'parentLookup', 'tooltip', 'order']) {
      expect(refusedAt({ components: [{ name: 'a', [field]: 'x' }] })).toContain(`/components/0/${field}`);
    }
    expect(refusedAt({ components: [{ name: 'a', id: { expr: 'x', template: 'y' } }] })).toContain('/components/0/id');
    expect(refusedAt({ components: [{ lookup: { catalog: [{ types: ['A'], transform: { expr: 'x' } }] } }] })).toContain('/components/0/lookup/catalog/0/transform');
    expect(validate({ components: [{ lookup: { catalog: [{ name: '', test: {}, display: { expr: 'x' }, selector: [{ types: ['A'] }] }] } }] })).toEqual([]);
    expect(refusedAt({ properties: [{ name: 'p', configLookup: { id: 'x', field: '$.a', display: { template: 'x' } } }] })).toContain('/properties/0/configLookup');
    expect(validate({ id: { javascript: 'properties.id' }, components: [{ name: 'a', id: { expr: 'self.name' }, parentLookup: { name: 'b' } }] })).toEqual([]);
  });

  it('refuses components that is not a list, a property without a name and a label that is not text', () => {
    expect(validate({ components: { name: 'a' } }).join('\n')).toContain('/components');
    expect(validate({ properties: [{ text: 'x' }] }).join('\n')).toContain('name');
    expect(validate({ components: [{ name: 'a', labels: { replicas: 3 } }] }).join('\n')).toContain('/components/0/labels/replicas');
  });

  it('takes a component without a name, which canary-checker keeps nameless', () => {
    expect(validate({ components: [{ type: 'x' }] })).toEqual([]);
  });

  it('refuses names over 255 characters', () => {
    expect(validate({ components: [{ name: 'n'.repeat(256) }] })).not.toEqual([]);
    expect(validate({ components: [{ name: 'n'.repeat(255) }] })).toEqual([]);
  });

  it('takes inline checks, and refuses lookups other than the catalog and property lookups', () => {
    expect(validate({ checks: [{ inline: { http: [{ name: 'x', url: 'http://x' }] } }] })).toEqual([]);
    expect(validate({ checks: [{}] })).not.toEqual([]);
    expect(validate({ components: [{ name: 'a', lookup: { http: [{ url: 'http://x' }] } }] }).join('\n')).toContain('/components/0/lookup');
    expect(validate({ components: [{ lookup: { catalog: [{ types: ['A'] }], exec: [{ script: 'x' }] } }] })).not.toEqual([]);
    expect(validate({ properties: [{ name: 'p', lookup: { http: [{}] } }] })).not.toEqual([]);
  });

  it('refuses selectors without any field and a configLookup without a field', () => {
    expect(validate({ configs: [{}] })).not.toEqual([]);
    expect(validate({ checks: [{ selector: {} }] })).not.toEqual([]);
    expect(validate({ properties: [{ name: 'p', configLookup: { id: 'x' } }] })).not.toEqual([]);
  });

  it('describes every field it names', () => {
    const nodes: Array<{ at: string; node: Record<string, unknown> }> = [];
    schemaNodes(topologySpecJsonSchema, '', nodes);
    const undocumented = nodes.filter(({ node }) => node.$ref === undefined && typeof node.description !== 'string');
    expect(undocumented.map(({ at }) => at)).toEqual([]);
  });
});
