import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { startTestServer, type TestServer } from './harness';

interface TopologyRow {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  schedule: string | null;
  spec: unknown;
}

const missionControl = {
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Topology',
  metadata: { name: 'pasted-shop', namespace: 'prod', labels: { team: 'payments' } },
  spec: {
    type: 'App',
    schedule: '@every 10m',
    checks: [{ selector: { labelSelector: 'app=shop' } }],
    components: [
      {
        name: 'Frontend',
        configs: [{ type: 'Kubernetes::Deployment', tagSelector: 'namespace=shop' }],
        components: [{ name: 'CDN', properties: [{ name: 'hit rate', value: 97, unit: '%' }] }],
      },
      {
        name: 'Pods',
        lookup: { configs: [{ name: 'pods', selector: [{ types: ['Kubernetes::Pod'] }] }] },
        forEach: { properties: [{ name: 'ip', configLookup: { field: '$.status.podIP' } }], checks: [{ selector: { name: '{{.name}}' } }] },
      },
    ],
  },
};

describe('topology specs saved through the data API', () => {
  let server: TestServer;
  let editor: string;
  let viewer: string;

  const save = (body: Record<string, unknown>, cookie = editor) => server.call('POST', '/api/db/topologies', cookie, body, { prefer: 'return=representation' });

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
  });

  afterAll(async () => {
    await server.close();
  });

  it('saves a pasted Topology resource unchanged and fills name, namespace, labels and schedule from it', async () => {
    const saved = await save({ spec: missionControl });
    expect(saved.status, saved.text).toBe(201);
    const [row] = saved.json as unknown as TopologyRow[];
    expect(row).toMatchObject({ name: 'pasted-shop', namespace: 'prod', labels: { team: 'payments' }, schedule: '@every 10m' });
    expect(row?.spec).toEqual(missionControl);
  });

  it("keeps the row's own name, namespace, labels and schedule over the resource's", async () => {
    const saved = await save({ name: 'own-name', namespace: 'ops', labels: { owner: 'me' }, schedule: '@hourly', spec: missionControl });
    expect(saved.status, saved.text).toBe(201);
    expect((saved.json as unknown as TopologyRow[])[0]).toMatchObject({ name: 'own-name', namespace: 'ops', labels: { owner: 'me' }, schedule: '@hourly' });
  });

  it('saves the spec alone under the name the form gives', async () => {
    const saved = await save({ name: 'spec-alone', spec: missionControl.spec });
    expect(saved.status, saved.text).toBe(201);
    expect((saved.json as unknown as TopologyRow[])[0]).toMatchObject({ name: 'spec-alone', namespace: 'default', schedule: '@every 10m' });
  });

  it('refuses each bad spec with a coded 400 that names the field', async () => {
    const NOT_RUN = 'OD_TOPOLOGY_FIELD_NOT_RUN';
    const cases: Array<{ label: string; body: Record<string, unknown>; details: string; code?: string }> = [
      { label: 'no name', body: { spec: { components: [] } }, details: 'name' },
      { label: 'an empty name', body: { name: '  ', spec: {} }, details: 'name' },
      { label: 'components that is not a list', body: { name: 't', spec: { components: { name: 'a' } } }, details: 'spec.components' },
      { label: 'a property without a name', body: { name: 't', spec: { components: [{ name: 'a', properties: [{ text: 'x' }] }] } }, details: 'spec.components[0].properties[0].name' },
      { label: 'a label that is not text', body: { name: 't', spec: { labels: { n: 1 } } }, details: 'spec.labels.n' },
      { label: 'an inline check the canary rules refuse', body: { name: 't', spec: { components: [{ name: 'a', checks: [{ selector: { name: 'x' } }, { inline: { http: [{ url: 'http://x' }] } }] }] } }, details: 'spec.components[0].checks[1].inline' },
      { label: 'an exec lookup', body: { name: 't', spec: { components: [{ name: 'a', lookup: { exec: [{ script: 'id' }] } }] } }, details: 'spec.components[0].lookup.exec', code: NOT_RUN },
      { label: 'an empty property lookup', body: { name: 't', spec: { properties: [{ name: 'p', lookup: { http: [] } }] } }, details: 'spec.properties[0].lookup' },
      { label: 'a statusExpr that is not CEL', body: { name: 't', spec: { components: [{ name: 'a', statusExpr: 'summary.healthy >' }] } }, details: 'spec.components[0].statusExpr' },
      { label: 'a healthExpr', body: { name: 't', spec: { healthExpr: 'true' } }, details: 'spec.healthExpr', code: NOT_RUN },
      { label: 'an unknown field', body: { name: 't', spec: { components: [{ name: 'a', sttausExpr: 'true' }] } }, details: 'spec.components[0].sttausExpr', code: NOT_RUN },
      { label: 'a JSONPath filter', body: { name: 't', spec: { properties: [{ name: 'p', configLookup: { id: 'x', field: '$..[?(@.a)]' } }] } }, details: 'spec.properties[0].configLookup.field' },
      { label: 'duplicate sibling names', body: { name: 't', spec: { components: [{ name: 'a' }, { name: 'a' }] } }, details: 'spec.components[1].name' },
      { label: 'a spec schedule that does not parse', body: { name: 't', spec: { schedule: 'sometimes' } }, details: 'spec.schedule' },
      { label: 'a schedule column that does not parse', body: { name: 't', schedule: 'every tuesday', spec: {} }, details: 'schedule' },
    ];
    for (const { label, body, details, code } of cases) {
      const refused = await save(body);
      expect(refused.status, label).toBe(400);
      expect(refused.json, label).toMatchObject({ code: code ?? 'OD_TOPOLOGY_SPEC', details });
      expect(typeof refused.json.hint, label).toBe('string');
    }
    const stored = await server.pool.query(`select count(*)::int as n from topologies where name = 't'`);
    expect(stored.rows[0]).toEqual({ n: 0 });
  });

  it('checks the spec on updates and keeps the name when an update leaves it out', async () => {
    const created = await save({ name: 'to-update', spec: {} });
    expect(created.status, created.text).toBe(201);
    const refused = await server.call('PATCH', '/api/db/topologies?name=eq.to-update', editor, { spec: { components: [{ name: 'a', lookup: { sql: [] } }] } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_TOPOLOGY_FIELD_NOT_RUN', details: 'spec.components[0].lookup.sql' });
    const blanked = await server.call('PATCH', '/api/db/topologies?name=eq.to-update', editor, { name: '' });
    expect(blanked.json).toMatchObject({ code: 'OD_TOPOLOGY_SPEC', details: 'name' });
    const updated = await server.call('PATCH', '/api/db/topologies?name=eq.to-update', editor, { spec: missionControl }, { prefer: 'return=representation' });
    expect(updated.status, updated.text).toBe(200);
    expect((updated.json as unknown as TopologyRow[])[0]).toMatchObject({ name: 'to-update', schedule: '@every 10m' });
  });

  it('refuses an exec or sql lookup from an admin too, on insert and upsert, and check lookups without display or on a local database', async () => {
    const admin = await server.cookieFor('admin');
    const lookups: Array<[string, unknown, string, string]> = [
      ['exec', [{ name: 'x', script: 'touch /tmp/topology-exec-ran' }], 'OD_TOPOLOGY_FIELD_NOT_RUN', 'spec.components[0].lookup.exec'],
      ['sql', [{ name: 'x', query: 'select * from people', connection: 'postgres://opsdeck@localhost/opsdeck' }], 'OD_LOCAL_DATABASE', 'components[0].lookup.sql[0].connection'],
      ['sql', [{ name: 'x', query: 'select * from people', connection: 'connection://ops/db' }], 'OD_TOPOLOGY_FIELD_NOT_RUN', 'spec.components[0].lookup.sql'],
      ['postgres', [{ name: 'x', query: 'select 1' }], 'OD_TOPOLOGY_SPEC', 'spec.components[0].lookup.postgres[0].display'],
      ['postgres', [{ name: 'x', url: 'postgres://opsdeck@127.0.0.1/opsdeck', query: 'select * from people', display: { expr: 'results.toJSON()' } }], 'OD_LOCAL_DATABASE', 'components[0].lookup.postgres[0].url'],
      ['http', [{ name: 'x', url: 'http://169.254.169.254/latest/meta-data/' }], 'OD_TOPOLOGY_SPEC', 'spec.components[0].lookup.http[0].display'],
    ];
    for (const [kind, entries, code, details] of lookups) {
      const spec = { components: [{ name: 'a', lookup: { [kind]: entries } }] };
      for (const [cookie, options] of [[admin, {}], [editor, { prefer: 'resolution=merge-duplicates' }]] as const) {
        const refused = await server.call('POST', '/api/db/topologies', cookie, { name: `attack-${kind}`, spec }, options);
        expect(refused.status, kind).toBe(400);
        expect(refused.json, kind).toMatchObject({ code });
        expect(String(refused.json.details), kind).toContain(details);
      }
    }
    const stored = await server.pool.query(`select count(*)::int as n from topologies where name like 'attack-%'`);
    expect(stored.rows[0]).toEqual({ n: 0 });
  });

  it('refuses a viewer', async () => {
    const refused = await save({ name: 'viewer-topology', spec: {} }, viewer);
    expect(refused.status).toBe(403);
  });

  it('serves the JSON Schema of the spec to readers, cacheable, accepting the pasted resource and flagging an empty check entry', async () => {
    const reply = await fetch(`${server.url}/api/schemas/topology.schema.json`, { headers: { cookie: viewer } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('private, max-age=3600');
    const schema = (await reply.json()) as Schema;
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Topology' });
    const validator = new Validator(schema, '2020-12', false);
    expect(validator.validate(missionControl).errors).toEqual([]);
    expect(validator.validate({ components: [{ name: 'a', checks: [{}] }] }).valid).toBe(false);
    const anonymous = await fetch(`${server.url}/api/schemas/topology.schema.json`);
    expect(anonymous.status).toBe(401);
  });
});
