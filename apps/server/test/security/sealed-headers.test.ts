import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../../src/modules/health/check-scheduler';
import { startHttpServer, type HttpTarget } from '../fixtures/local-targets';
import { startTestServer, type TestServer } from '../harness';

const X_PASSWORD = 'x-password-plaintext';
const X_AUTH_PASS = 'x-auth-pass-plaintext';
const BODY = '{"client_id":"probe","client_secret":"body-plaintext"}';
const PLAINTEXTS = [X_PASSWORD, X_AUTH_PASS, 'body-plaintext'];

interface CanaryReply {
  id: string;
  spec: Record<string, unknown>;
  checks: Array<{ id: string }>;
}

function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { $encrypted?: unknown }).$encrypted === 'string';
}

describe('header values off the public allow-list and request bodies are sealed', () => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let target: HttpTarget;
  let canary: CanaryReply;
  const previousRole = process.env.OPSDECK_ROLE;

  const httpCheck = () => ({
    name: 'token-exchange',
    url: `${target.url}/ok`,
    method: 'POST',
    headers: { 'X-Password': X_PASSWORD, 'X-Auth-Pass': X_AUTH_PASS, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: BODY,
  });

  /** Runs the canary's check now, as the scheduler does, and returns the request the target received. */
  async function runAndCapture(): Promise<(typeof target.requests)[number] | undefined> {
    const checkId = canary.checks[0]?.id ?? '';
    await server.pool.query(`update checks set next_runtime = case when id = $1 then now() else now() + interval '1 day' end`, [checkId]);
    const before = target.requests.length;
    const runs = await new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus }).runDue();
    expect(runs.map((run) => run.checkId)).toContain(checkId);
    return target.requests.slice(before).at(-1);
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
    target = await startHttpServer();
    const saved = await server.call('POST', '/api/canary/canaries', editor, { name: 'sealed-headers', spec: { http: [httpCheck()] } });
    expect(saved.status, saved.text).toBe(201);
    canary = saved.json as unknown as CanaryReply;
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await target.close();
    await server.close();
  });

  it('stores X-Password, X-Auth-Pass and the body sealed, and public headers as written', async () => {
    const stored = await server.pool.query<{ canary: string; check: string }>(
      'select c.spec::text as canary, k.spec::text as check from canaries c join checks k on k.canary_id = c.id where c.id = $1',
      [canary.id],
    );
    for (const text of [stored.rows[0]?.canary ?? '', stored.rows[0]?.check ?? '']) {
      for (const plaintext of PLAINTEXTS) expect(text).not.toContain(plaintext);
    }
    const check = (canary.spec.http as Array<{ headers: Record<string, unknown>; body: unknown }>)[0];
    expect(isEnvelope(check?.headers['X-Password'])).toBe(true);
    expect(isEnvelope(check?.headers['X-Auth-Pass'])).toBe(true);
    expect(isEnvelope(check?.body)).toBe(true);
    expect(check?.headers).toMatchObject({ Accept: 'application/json', 'Content-Type': 'application/json' });
  });

  it('shows a viewer no plaintext on any read path', async () => {
    const checkId = canary.checks[0]?.id ?? '';
    const reads = [
      `/api/canary/canaries/${canary.id}`,
      '/api/canary/canaries',
      `/api/canary/api/summary`,
      `/api/canary/api/details?check=${checkId}`,
      `/api/db/canaries?id=eq.${canary.id}`,
      `/api/db/checks?id=eq.${checkId}`,
      `/api/db/check_statuses?check_id=eq.${checkId}`,
    ];
    await runAndCapture();
    for (const url of reads) {
      const reply = await server.call('GET', url, viewer);
      expect(reply.status, url).toBe(200);
      for (const plaintext of PLAINTEXTS) expect(reply.text, url).not.toContain(plaintext);
    }
  });

  it('seals them when written through the data API too', async () => {
    const inserted = await server.call('POST', '/api/db/canaries', editor, { name: 'sealed-data-api', spec: { http: [httpCheck()] } }, { prefer: 'return=representation' });
    expect(inserted.status, inserted.text).toBe(201);
    for (const plaintext of PLAINTEXTS) expect(inserted.text).not.toContain(plaintext);
  });

  it('still sends the headers and the body to the target, also after an edit that sends the envelopes back', async () => {
    const first = await runAndCapture();
    expect(first?.headers).toMatchObject({ 'x-password': X_PASSWORD, 'x-auth-pass': X_AUTH_PASS });
    expect(first?.body).toBe(BODY);

    const edited = await server.call('PATCH', `/api/canary/canaries/${canary.id}`, editor, { spec: canary.spec, description: 'edited' });
    expect(edited.status, edited.text).toBe(200);
    canary = edited.json as unknown as CanaryReply;
    const second = await runAndCapture();
    expect(second?.headers).toMatchObject({ 'x-password': X_PASSWORD, 'x-auth-pass': X_AUTH_PASS });
    expect(second?.body).toBe(BODY);
  });
});
