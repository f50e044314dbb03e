import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { runTopology } from '../src/modules/topology';
import type { TopologyRow } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { startFakeKubeApi, type FakeKubeApi } from './fixtures/fake-kube-api';

interface StoredComponent {
  name: string;
  parent: string | null;
  type: string | null;
  properties: Array<{ name: string; text?: string; value?: number }> | null;
}

const TOKEN = 'lookup-bearer-5c1d';
const BASIC = `Basic ${Buffer.from(`bot:${TOKEN}`).toString('base64')}`;

/** Assigning undefined to process.env stores the text 'undefined'. */
function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

/**
 * Mission Control's check lookups on topology components (issue #32 item 4; canary-checker's component-with-for-each,
 * component-with-properties and kubernetes-lookup fixtures): checks run when the topology is built, their display
 * giving the components and properties.
 */
describe('check lookups of a topology', () => {
  let server: TestServer;
  let editor: string;
  let api: FakeKubeApi;
  let site: http.Server;
  let siteUrl = '';
  const authorizations: string[] = [];
  let failing = false;
  const previousRole = process.env.OPSDECK_ROLE;

  async function save(name: string, spec: unknown): Promise<TopologyRow> {
    const reply = await server.call('POST', '/api/db/topologies', editor, { name, namespace: 'ops', spec }, { prefer: 'return=representation' });
    expect(reply.status, reply.text).toBe(201);
    return (JSON.parse(reply.text) as TopologyRow[])[0] as TopologyRow;
  }

  async function components(topologyId: string): Promise<StoredComponent[]> {
    const rows = await server.pool.query<StoredComponent>(
      `select c.name, p.name as parent, c.type, c.properties from components c left join components p on p.id = c.parent_id
        where c.topology_id = $1 and c.deleted_at is null order by c.name`,
      [topologyId],
    );
    return rows.rows;
  }

  const run = (topology: TopologyRow) => runTopology(server.pool, topology, { secretKey: TEST_SECRET_KEY });

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    api = await startFakeKubeApi();
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'cluster', namespace: 'ops', type: 'kubernetes', url: api.url, password: api.token, insecure_tls: true }, null);
    site = http.createServer((req, res) => {
      authorizations.push(req.headers.authorization ?? '');
      res.writeHead(failing ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ teams: { 'component-a': 'team-a', 'component-b': 'team-b' }, token: req.headers.authorization ?? '' }));
    });
    const port = await new Promise<number>((resolve) => site.listen(0, '127.0.0.1', () => resolve((site.address() as net.AddressInfo).port)));
    siteUrl = `http://127.0.0.1:${port}`;
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'site', namespace: 'ops', type: 'http', url: siteUrl, username: 'bot', password: TOKEN }, null);
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_ROLE', previousRole);
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
    await api.close();
    await server.close();
  });

  it('builds components from an http lookup, gives each its forEach children and fills a property lookup into them', async () => {
    const topology = await save('for-each', {
      components: [
        {
          name: 'GroupA',
          type: 'virtual',
          lookup: {
            http: [
              {
                name: 'http-lookup',
                url: `${siteUrl}/components`,
                display: { expr: "[{'name': 'component-a', 'type': 'API', 'properties': [{'name': 'owner'}]}, {'name': 'component-b', 'type': 'Frontend', 'properties': [{'name': 'owner'}]}].toJSON()" },
              },
            ],
          },
          forEach: { components: [{ name: 'Child-A' }], labels: { component: '$(.component.name)' } },
          properties: [
            {
              name: 'owner',
              lookup: { http: [{ name: 'owner-lookup', url: `${siteUrl}/owners`, display: { expr: "json.teams.keys().map(k, {'name': k, 'properties': [{'name': 'owner', 'text': json.teams[k]}]}).toJSON()" } }] },
            },
          ],
        },
      ],
    });
    const outcome = await run(topology);
    expect(outcome.errors).toEqual([]);
    expect(outcome.status).toBe('SUCCESS');
    const stored = await components(topology.id);
    expect(stored.filter((row) => row.parent === 'GroupA').map((row) => [row.name, row.type, row.properties])).toEqual([
      ['component-a', 'API', [{ name: 'owner', text: 'team-a' }]],
      ['component-b', 'Frontend', [{ name: 'owner', text: 'team-b' }]],
    ]);
    expect(stored.filter((row) => row.name === 'Child-A').map((row) => row.parent).sort()).toEqual(['component-a', 'component-b']);
  });

  it("makes a component per resource of a kubernetes lookup through a stored connection, as canary-checker's kubernetes-lookup does", async () => {
    const topology = await save('kubernetes-configs', {
      type: 'Config',
      components: [
        {
          name: 'configs',
          type: 'ConfigMap',
          lookup: {
            kubernetes: [
              { kind: 'ConfigMap', kubeconfig: 'connection://ops/cluster', namespaceSelector: { name: '*' }, display: { expr: "dyn(results).map(c, {'name': c.Object.metadata.name, 'type': 'ConfigMap'}).toJSON()" } },
            ],
          },
        },
      ],
    });
    const outcome = await run(topology);
    expect(outcome.status, outcome.errors.join('\n')).toBe('SUCCESS');
    expect((await components(topology.id)).filter((row) => row.parent === 'configs').map((row) => [row.name, row.type])).toEqual([['web-settings', 'ConfigMap']]);
  });

  it("sends a connection's credentials to its own origin only and keeps them out of what the display stores", async () => {
    const topology = await save('with-connection', {
      components: [{ lookup: { http: [{ name: 'leak', connection: 'connection://ops/site', url: `${siteUrl}/x`, display: { expr: "[{'name': json.token}].toJSON()" } }] } }],
    });
    const outcome = await run(topology);
    expect(outcome.status, outcome.errors.join('\n')).toBe('SUCCESS');
    expect(authorizations).toContain(BASIC);
    const names = (await components(topology.id)).map((row) => row.name).join(' ');
    expect(names).toContain('[REDACTED]');
    expect(names).not.toContain(BASIC.slice(6));
    const elsewhere = await server.call('POST', '/api/db/topologies', editor, {
      name: 'elsewhere',
      namespace: 'ops',
      spec: { components: [{ lookup: { http: [{ connection: 'connection://ops/site', url: 'http://198.51.100.7/', display: { expr: '[].toJSON()' } }] } }] },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.code).toBe('OD_CONNECTION_ORIGIN');
  });

  it('fails the run when a lookup fails, leaving the components of the last good run in place', async () => {
    const topology = await save('flaky', {
      components: [{ name: 'group', lookup: { http: [{ name: 'apps', url: `${siteUrl}/apps`, display: { expr: "[{'name': 'api'}].toJSON()" } }] } }],
    });
    expect((await run(topology)).status).toBe('SUCCESS');
    failing = true;
    try {
      const outcome = await run(topology);
      expect(outcome.status).toBe('FAILED');
      expect(outcome.errors.join('\n')).toContain('spec.components[0].lookup.http[0]: the http lookup failed');
    } finally {
      failing = false;
    }
    expect((await components(topology.id)).map((row) => row.name)).toContain('api');
  });

  it('refuses at save an exec lookup, a lookup with a secret and one without display, for editors and admins alike', async () => {
    const admin = await server.cookieFor('admin');
    for (const [lookup, field] of [
      [{ exec: [{ script: 'id', display: { expr: '[]' } }] }, 'lookup.exec'],
      [{ http: [{ url: siteUrl, headers: [{ name: 'Authorization', value: 'Bearer x' }], display: { expr: '[]' } }] }, 'lookup.http[0]'],
      [{ http: [{ url: siteUrl }] }, 'lookup.http[0].display'],
    ] as const) {
      for (const cookie of [editor, admin]) {
        const reply = await server.call('POST', '/api/db/topologies', cookie, { name: 'refused', spec: { components: [{ lookup }] } });
        expect(reply.status, JSON.stringify(lookup)).toBe(400);
        expect(String(reply.json.details)).toContain(field);
      }
    }
  });
});
