import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonReply, type TestServer } from './harness';

describe('agents', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;

  const call = (method: string, url: string, cookie: string, body?: unknown): Promise<JsonReply> => server.call(method, url, cookie, body);

  async function create(body: Record<string, unknown>): Promise<{ id: string; token: string }> {
    const created = await call('POST', '/api/agents', admin, body);
    expect(created.status, created.text).toBe(201);
    return { id: String(created.json.id), token: String(created.json.access_token) };
  }

  beforeAll(async () => {
    server = await startTestServer();
    [admin, editor, viewer] = await Promise.all([server.cookieFor('admin'), server.cookieFor('editor'), server.cookieFor('viewer')]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the access token once at creation and stores only its SHA-256', async () => {
    const created = await call('POST', '/api/agents', admin, {
      name: '  edge-cluster  ',
      description: 'Edge',
      properties: { region: 'eu-west' },
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: true, topologyName: 'edge' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['access_token', 'id', 'name']);
    expect(created.json.name).toBe('edge-cluster');
    const token = String(created.json.access_token);
    expect(token).toMatch(/^opsdeck_agent_[A-Za-z0-9_-]{43}$/);
    const id = String(created.json.id);

    const stored = await server.pool.query<{ access_token_hash: string; created_by: string | null }>(
      'select access_token_hash, created_by from agents where id = $1',
      [id],
    );
    const hash = createHash('sha256').update(token).digest('hex');
    expect(stored.rows[0]?.access_token_hash).toBe(hash);
    expect(stored.rows[0]?.created_by).not.toBeNull();

    const read = await call('GET', `/api/agents/${id}`, admin);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      id,
      name: 'edge-cluster',
      description: 'Edge',
      properties: { region: 'eu-west' },
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: true, topologyName: 'edge' },
    });
    for (const url of [`/api/agents/${id}`, `/api/db/agents?id=eq.${id}`, `/api/db/agents_summary?id=eq.${id}`, `/api/db/agents_summary`]) {
      const reply = await call('GET', url, viewer);
      expect(reply.status, url).toBe(200);
      expect(reply.text, url).toContain('edge-cluster');
      expect(reply.text, url).not.toContain(token);
      expect(reply.text, url).not.toContain(hash);
      expect(reply.text, url).not.toContain('access_token');
    }
  });

  it('refuses to select or filter the token hash through the data API', async () => {
    const { id } = await create({ name: 'hash-probe' });
    for (const query of [`select=id,access_token_hash&id=eq.${id}`, 'access_token_hash=not.is.null']) {
      const reply = await call('GET', `/api/db/agents?${query}`, admin);
      expect(reply.status, query).toBe(400);
      expect(reply.text, query).not.toMatch(/[0-9a-f]{64}/);
    }
  });

  it('defaults the scrape interval to 30m and both settings to off', async () => {
    const { id } = await create({ name: 'defaults', kubernetes: { enabled: true } });
    const read = await call('GET', `/api/agents/${id}`, admin);
    expect(read.json).toMatchObject({
      description: null,
      properties: {},
      kubernetes: { enabled: true, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: null },
    });
  });

  it('answers 409 with a coded error for a name a live agent already has, and frees the name once it is deleted', async () => {
    const { id } = await create({ name: 'duplicate' });
    const again = await call('POST', '/api/agents', admin, { name: ' duplicate ' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'OD_NAME_TAKEN', message: "An agent named 'duplicate' already exists" });

    await server.pool.query('update agents set deleted_at = now() where id = $1', [id]);
    expect((await call('POST', '/api/agents', admin, { name: 'duplicate' })).status).toBe(201);
    expect((await call('GET', `/api/agents/${id}`, admin)).json).toMatchObject({ code: 'OD404', message: 'Agent not found' });
  });

  it("refuses the name 'local', which the health page gives the server's own checks, through the route and the data API", async () => {
    const viaRoute = await call('POST', '/api/agents', admin, { name: ' Local ' });
    expect(viaRoute.status).toBe(400);
    expect(viaRoute.text).toContain("'local' names this server's own checks");
    const { id } = await create({ name: 'renamable' });
    const viaDataApi = await call('PATCH', `/api/db/agents?id=eq.${id}`, admin, { name: 'LOCAL' });
    expect(viaDataApi.status).toBe(400);
    expect(viaDataApi.json).toMatchObject({ code: 'OD_VALIDATION' });
  });

  it('lets an editor create agents and keeps viewers to reading', async () => {
    expect((await call('POST', '/api/agents', editor, { name: 'by-editor' })).status).toBe(201);
    const refused = await call('POST', '/api/agents', viewer, { name: 'by-viewer' });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('OD403');
    const { id } = await create({ name: 'viewer-target' });
    expect((await call('PATCH', `/api/agents/${id}`, viewer, { description: 'nope' })).status).toBe(403);
    expect((await call('GET', `/api/agents/${id}`, viewer)).status).toBe(200);
    const count = await server.pool.query<{ n: number }>(`select count(*)::int as n from agents where name = 'by-viewer'`);
    expect(count.rows[0]?.n).toBe(0);
  });

  it('updates description, properties and settings while the name stays read-only', async () => {
    const { id, token } = await create({ name: 'updatable', kubernetes: { enabled: true, interval: '1h' }, pushTelemetry: { enabled: true, topologyName: 'one' } });
    const updated = await call('PATCH', `/api/agents/${id}`, admin, {
      name: 'updatable',
      description: 'Now described',
      properties: { team: 'sre' },
      pushTelemetry: { enabled: false },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({
      name: 'updatable',
      description: 'Now described',
      properties: { team: 'sre' },
      kubernetes: { enabled: true, interval: '1h' },
      pushTelemetry: { enabled: false, topologyName: null },
    });
    expect(updated.text).not.toContain(token);

    const renamed = await call('PATCH', `/api/agents/${id}`, admin, { name: 'renamed' });
    expect(renamed.status).toBe(400);
    expect(renamed.json.code).toBe('OD_AGENT_NAME_READ_ONLY');
    expect((await call('GET', `/api/agents/${id}`, admin)).json.name).toBe('updatable');

    const cleared = await call('PATCH', `/api/agents/${id}`, admin, { description: null });
    expect(cleared.json.description).toBeNull();
    expect(cleared.json.properties).toEqual({ team: 'sre' });
  });

  it('answers 404 when updating an agent that does not exist', async () => {
    const reply = await call('PATCH', '/api/agents/00000000-0000-4000-8000-000000000001', admin, { description: 'x' });
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe('OD404');
  });

  it.each([
    ['a missing name', {}],
    ['a blank name', { name: '   ' }],
    ['a name with a line break', { name: 'two\nlines' }],
    ['an unknown scrape interval', { name: 'bad-interval', kubernetes: { enabled: true, interval: '3m' } }],
    ['a non-boolean toggle', { name: 'bad-toggle', pushTelemetry: { enabled: 'yes' } }],
    ['a property that is not a string', { name: 'bad-property', properties: { replicas: 3 } }],
    ['a property without a name', { name: 'bad-property-key', properties: { ' ': 'x' } }],
  ])('answers 400 with a coded JSON error for %s', async (_case, body) => {
    const reply = await call('POST', '/api/agents', admin, body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_VALIDATION', message: 'The request is not valid' });
    expect(typeof reply.json.details).toBe('string');
  });

  it('answers 400 for an id that is not a uuid', async () => {
    expect((await call('GET', '/api/agents/not-a-uuid', admin)).status).toBe(400);
  });

  it('checks settings written through the data API', async () => {
    const { id } = await create({ name: 'data-api-settings' });
    const bad = await call('PATCH', `/api/db/agents?id=eq.${id}`, admin, { settings: { kubernetes: { enabled: true, interval: 'often' } } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('OD_AGENT_SETTINGS');
    const good = await call('PATCH', `/api/db/agents?id=eq.${id}`, admin, { settings: { kubernetes: { enabled: true, interval: '6h' } } });
    expect(good.status, good.text).toBeLessThan(300);
    expect((await call('GET', `/api/agents/${id}`, admin)).json.kubernetes).toEqual({ enabled: true, interval: '6h' });
  });
});
