import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { PlaybookWorker } from '../../src/modules/playbooks/playbook-worker';
import { startTestServer, type TestServer } from '../harness';
import { startHttpServer, type HttpTarget } from '../fixtures/local-targets';

const PASSWORD = 'webhook-password-7c1d';
const GITHUB_TOKEN = 'github-webhook-secret-19af';
const SVIX_KEY = Buffer.from('svix-signing-key-of-32-bytes-long!');
const SVIX_SECRET = `whsec_${SVIX_KEY.toString('base64')}`;
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Mission Control's playbook webhooks (on.webhook), from the outside: the public route starts a run only for a request
 * that passes the playbook's authentication, keeps no credential, and cannot be guessed at without being throttled.
 */
describe('playbook webhooks', () => {
  let server: TestServer;
  let worker: PlaybookWorker;
  let peer: HttpTarget;
  let admin: string;
  let editor: string;
  let viewer: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const basic = (user: string, password: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${server.url}/api/playbook/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function savePlaybook(cookie: string, spec: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown>; id: string }> {
    const saved = await server.call('POST', '/api/db/playbooks', cookie, { name: `hook-${randomUUID().slice(0, 8)}`, spec }, { prefer: 'return=representation' });
    const rows = saved.json as unknown as Array<{ id: string }>;
    return { status: saved.status, json: saved.json, id: Array.isArray(rows) ? (rows[0]?.id ?? '') : '' };
  }

  function relay(path: string, authentication: Record<string, unknown>): Record<string, unknown> {
    return {
      on: { webhook: { path, authentication } },
      actions: [{ name: 'relay', http: { url: `${peer.url}/echo`, method: 'POST', body: '{"ref":"{{.request.json.ref}}","name":"{{.request.params.name}}","agent":"{{.request.headers.user-agent}}"}' } }],
    };
  }

  async function drive(runId: string): Promise<PlaybookRun> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const reply = await server.call('GET', `/api/playbook/run/${runId}`, admin);
      const run = reply.json as unknown as PlaybookRun;
      if (FINAL.has(run.status)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
      await worker.runDue();
    }
  }

  const runsOf = async (playbookId: string): Promise<number> =>
    (await server.pool.query<{ count: number }>('select count(*)::integer as count from playbook_runs where playbook_id = $1', [playbookId])).rows[0]?.count ?? 0;

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
    worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 3000 });
    peer = await startHttpServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await peer.close();
    await server.close();
  });

  it('starts a run for a request with the right Basic credentials, which templates read as .request, and keeps no credential', async () => {
    const saved = await savePlaybook(editor, relay('deploy-hook', { basic: { username: { value: 'ci' }, password: { value: PASSWORD } } }));
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    const stored = await server.pool.query<{ spec: unknown }>('select spec from playbooks where id = $1', [saved.id]);
    expect(JSON.stringify(stored.rows[0]?.spec)).not.toContain(PASSWORD);
    const read = await server.call('GET', `/api/db/playbooks?id=eq.${saved.id}`, viewer);
    expect(read.text).not.toContain(PASSWORD);

    const started = await post('deploy-hook?name=world', JSON.stringify({ ref: 'refs/heads/main' }), { ...basic('ci', PASSWORD), 'user-agent': 'GitHub-Hookshot/1' });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const run = await drive(String(started.json.id));
    expect(run.status, JSON.stringify(run.actions)).toBe('completed');
    expect(peer.requests.at(-1)?.body).toBe('{"ref":"refs/heads/main","name":"world","agent":"GitHub-Hookshot/1"}');
    expect(run.request).toMatchObject({ method: 'POST', params: { name: 'world' }, json: { ref: 'refs/heads/main' } });
    expect(run.request?.headers).not.toHaveProperty('authorization');
    const kept = await server.pool.query<{ request: Record<string, unknown>; created_by: string | null }>('select request, created_by from playbook_runs where id = $1', [run.id]);
    expect(kept.rows[0]?.created_by).toBeNull();
    expect(kept.rows[0]?.request).toMatchObject({ method: 'POST', url: '/api/playbook/webhook/deploy-hook?name=world', params: { name: 'world' }, json: { ref: 'refs/heads/main' } });
    expect(JSON.stringify(kept.rows[0]?.request)).not.toContain(Buffer.from(`ci:${PASSWORD}`).toString('base64'));
  });

  it('refuses a request without credentials or with wrong ones, starting nothing', async () => {
    const saved = await savePlaybook(editor, relay('guarded-hook', { basic: { username: 'ci', password: PASSWORD } }));
    expect(saved.status).toBe(201);
    for (const headers of [{}, basic('ci', 'guess'), basic('root', PASSWORD), { authorization: 'Bearer x' }]) {
      const refused = await post('guarded-hook', '{}', headers);
      expect(refused.status).toBe(401);
      expect(refused.json.code).toBe('OD_WEBHOOK_UNAUTHORIZED');
    }
    expect(await runsOf(saved.id)).toBe(0);
  });

  it("checks GitHub's signature of the body and Svix's signature and timestamp", async () => {
    const github = await savePlaybook(editor, relay('github-hook', { github: { token: GITHUB_TOKEN } }));
    expect(github.status).toBe(201);
    const body = JSON.stringify({ ref: 'refs/tags/v1' });
    const signature = `sha256=${createHmac('sha256', GITHUB_TOKEN).update(body).digest('hex')}`;
    expect((await post('github-hook', body, { 'x-hub-signature-256': signature })).status).toBe(201);
    expect((await post('github-hook', `${body} `, { 'x-hub-signature-256': signature })).status).toBe(401);

    const svix = await savePlaybook(editor, relay('svix-hook', { svix: { secret: SVIX_SECRET, timestampTolerance: '5m' } }));
    expect(svix.status).toBe(201);
    const signed = (timestamp: number): Record<string, string> => ({
      'svix-id': 'msg_1',
      'svix-timestamp': String(timestamp),
      'svix-signature': `v1,${createHmac('sha256', SVIX_KEY).update(`msg_1.${timestamp}.${body}`).digest('base64')}`,
    });
    const now = Math.floor(Date.now() / 1000);
    expect((await post('svix-hook', body, signed(now))).status).toBe(201);
    expect((await post('svix-hook', body, signed(now - 3600))).status).toBe(401);
  });

  it('closes a path for the rest of the minute after ten failed requests, even to the right credentials', async () => {
    const saved = await savePlaybook(editor, relay('throttled-hook', { basic: { username: 'ci', password: PASSWORD } }));
    expect(saved.status).toBe(201);
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await post('throttled-hook', '{}', basic('ci', `guess-${attempt}`))).status).toBe(401);
    const locked = await post('throttled-hook', '{}', basic('ci', PASSWORD));
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('OD_WEBHOOK_THROTTLED');
    expect(await runsOf(saved.id)).toBe(0);
  });

  it('answers an unknown path 404 and a GET 405, and refuses a webhook without authentication or on a taken path', async () => {
    expect((await post('nobody-listens', '{}')).json.code).toBe('OD_WEBHOOK_NOT_FOUND');
    const get = await fetch(`${server.url}/api/playbook/webhook/deploy-hook`);
    expect(get.status).toBe(405);
    const open = await savePlaybook(editor, { on: { webhook: { path: 'open-hook' } }, actions: [{ name: 'a', http: { url: `${peer.url}/x` } }] });
    expect(open.status).toBe(400);
    expect(open.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'spec.on.webhook.authentication' });
    const taken = await savePlaybook(editor, relay('deploy-hook', { github: { token: 'another-secret' } }));
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('OD_PLAYBOOK_WEBHOOK_TAKEN');
  });
});
