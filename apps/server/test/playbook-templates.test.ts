import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { createConnection } from '../src/modules/connections/connection-store';
import { PlaybookWorker } from '../src/modules/playbooks/playbook-worker';
import { startPostgresTarget, type PostgresTarget } from './fixtures/postgres-target';
import { runStatus, savePlaybook } from './playbook-support';
import { startTestServer, type TestServer } from './harness';

const IS_ROOT = process.getuid?.() === 0;
const FINAL = new Set(['completed', 'failed', 'cancelled']);

interface Seen {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback listener that keeps every request it was sent. */
async function startListener(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://listener');
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What `$(echo "$V")` gives printf: the value word-split by the outer, unquoted substitution, as any shell does. */
function echoed(value: string): string {
  return value.split(/\s+/).filter((word) => word !== '').map((word) => `<${word}>`).join('');
}

/** Values that would change a command if they were pasted into it. */
const ATTACKS = ['x"; rm -rf / #', '$(touch MARKER)', '`touch MARKER`', "'; drop table playbooks; --", "a' || (select 1) || 'b"];

describe('playbook templates: values never change the command', () => {
  let server: TestServer;
  let worker: PlaybookWorker;
  let admin: string;
  let listener: Awaited<ReturnType<typeof startListener>>;
  const previousRole = process.env.OPSDECK_ROLE;

  const save = (spec: Record<string, unknown>): Promise<string> => savePlaybook(server, admin, spec, 'tpl');

  const statusOf = (id: string): Promise<string> => runStatus(server, id);

  /** Requests a run and lets the worker advance it until it has finished. */
  async function run(playbookId: string, params: Record<string, string>, target: Record<string, string> = {}): Promise<PlaybookRun> {
    const reply = await server.call('POST', '/api/playbook/run', admin, { id: playbookId, params, ...target });
    expect(reply.status, reply.text).toBe(201);
    const id = String(reply.json.run_id);
    const deadline = Date.now() + 30_000;
    while (!FINAL.has(await statusOf(id))) {
      if (Date.now() > deadline) throw new Error(`run ${id} is still ${await statusOf(id)}`);
      await worker.runDue();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const done = await server.call('GET', `/api/playbook/run/${id}`, admin);
    return done.json as unknown as PlaybookRun;
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 5000, onError: (error) => console.error(error) });
    admin = await server.cookieFor('admin');
    listener = await startListener();
  });
  afterAll(async () => {
    if (previousRole === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_ROLE');
    else process.env.OPSDECK_ROLE = previousRole;
    await listener.close();
    await server.close();
  });

  describe.runIf(IS_ROOT)('exec', () => {
    it.each(ATTACKS)('keeps %j one argument wherever the script quotes it, and runs nothing it holds', async (attack) => {
      const marker = path.join(os.tmpdir(), `opsdeck-pwned-${randomBytes(6).toString('hex')}`);
      const value = attack.replace('MARKER', marker);
      const playbook = await save({
        parameters: [{ name: 'x', type: 'text' }],
        actions: [{ name: 'print', exec: { script: `printf '<%s>' {{.params.x}} "{{.params.x}}" '{{.params.x}}' --name={{ .params.x | shellQuote }} $(.params.x) "$(.params.x)" $(echo $(.params.x))` } }],
      });
      const done = await run(playbook, { x: value });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toBe(`<${value}><${value}><${value}><--name=${value}><${value}><${value}>${echoed(value)}`);
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
    });

    it('refuses a value bash would run through arithmetic, however the script quotes it, and runs nothing', async () => {
      const marker = path.join(os.tmpdir(), `opsdeck-pwned-${randomBytes(6).toString('hex')}`);
      const playbook = await save({
        parameters: [{ name: 'x', type: 'text' }],
        actions: [{ name: 'count', exec: { script: `n="{{.params.x}}"; [[ "$n" -eq 1 ]] || true; [[ "$PARAM_X" -eq 1 ]] || true; echo done` } }],
      });
      const done = await run(playbook, { x: `x[$(touch ${marker})]` });
      expect(done.status, JSON.stringify(done.actions)).toBe('failed');
      expect(JSON.stringify(done.actions)).toContain('array subscript with a command substitution');
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
    });

    it('keeps a secret parameter sealed in the run, hands it to the script, and scrubs it from what the run keeps', async () => {
      const secret = `hunter2-${randomBytes(4).toString('hex')}`;
      const playbook = await save({
        parameters: [{ name: 'token', type: 'secret' }],
        actions: [{ name: 'use', exec: { script: '[ "$PARAM_TOKEN" = {{.params.token}} ] && echo match; echo "{{.params.token}}"' } }],
      });
      const done = await run(playbook, { token: secret });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toContain('match');
      expect(JSON.stringify(done)).not.toContain(secret);
      expect(done.parameters.token).toMatch(/^\{"\$encrypted":/);
      const stored = await server.pool.query<{ text: string }>('select parameters::text as text from playbook_runs where playbook_id = $1', [playbook]);
      expect(stored.rows[0]?.text).not.toContain(secret);
      const api = await server.call('GET', `/api/db/playbook_runs?playbook_id=eq.${playbook}&select=parameters`, admin);
      expect(api.text).not.toContain(secret);
    });

    it("hands exec.connections' credentials to the script as its CLI reads them, and scrubs them from what the run keeps", async () => {
      const key = server.running.context.config.secretKey;
      const secret = `aws-secret-${randomBytes(4).toString('hex')}`;
      const kubeconfig = `apiVersion: v1\nkind: Config\n# token-${randomBytes(4).toString('hex')}\n`;
      await createConnection(server.pool, key, { name: 'tpl-aws', type: 'aws', username: 'AKIAEXAMPLE', password: secret, properties: { region: 'eu-west-1' } }, null);
      await createConnection(server.pool, key, { name: 'tpl-kube', type: 'kubernetes', certificate: kubeconfig }, null);
      const playbook = await save({
        actions: [
          {
            name: 'cli',
            exec: {
              script: 'echo "$AWS_ACCESS_KEY_ID $AWS_REGION"; [ "$AWS_SECRET_ACCESS_KEY" = "' + secret + '" ] && echo key-ok; echo "$AWS_SECRET_ACCESS_KEY"; stat -c %a "$KUBECONFIG"; cat "$KUBECONFIG"',
              connections: { aws: { connection: 'connection://default/tpl-aws' }, kubernetes: { connection: 'tpl-kube' } },
            },
          },
        ],
      });
      const done = await run(playbook, {});
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      const stdout = done.actions[0]?.result?.stdout ?? '';
      expect(stdout).toContain(' eu-west-1\nkey-ok\n');
      expect(stdout).not.toContain('AKIAEXAMPLE');
      expect(stdout).toContain('600\n');
      expect(stdout).not.toContain(secret);
      expect(stdout).not.toContain('token-');
    });

    it("hands over the kubernetes connection the item's scraper reads the cluster with, for connections.fromConfigItem", async () => {
      const key = server.running.context.config.secretKey;
      const kubeconfig = `apiVersion: v1\nkind: Config\n# from-item-${randomBytes(4).toString('hex')}\n`;
      await createConnection(server.pool, key, { name: 'tpl-item-kube', namespace: 'mc', type: 'kubernetes', certificate: kubeconfig }, null);
      const scraper = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, spec) values ('tpl-cluster', $1) returning id`, [
        JSON.stringify({ kubernetes: [{ clusterName: 'homelab', kubeconfig: { connection: 'connection://mc/tpl-item-kube' } }] }),
      ]);
      const item = await server.pool.query<{ id: string }>(
        `insert into config_items (scraper_id, type, config_class, name) values ($1, 'Kubernetes::Deployment', 'Deployment', 'tpl-api') returning id`,
        [scraper.rows[0]?.id],
      );
      const orphan = await server.pool.query<{ id: string }>(`insert into config_items (type, config_class, name) values ('Kubernetes::Deployment', 'Deployment', 'tpl-orphan') returning id`);
      const playbook = await save({
        configs: [{ types: ['Kubernetes::Deployment'] }],
        actions: [{ name: 'list', exec: { script: 'stat -c %a "$KUBECONFIG"; grep -c "kind: Config" "$KUBECONFIG"', connections: { fromConfigItem: '{{.config.id}}' } } }],
      });
      const done = await run(playbook, {}, { config_id: item.rows[0]?.id ?? '' });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toBe('600\n1\n');
      const none = await run(playbook, {}, { config_id: orphan.rows[0]?.id ?? '' });
      expect(none.status).toBe('failed');
      expect(none.actions[0]?.error).toBe(`The script was not started: connections.fromConfigItem: the catalog item ${orphan.rows[0]?.id ?? ''} has no scraper that made it`);
    });

    it('runs the lines a template chooses, as Mission Control does', async () => {
      const playbook = await save({
        parameters: [{ name: 'force', type: 'checkbox' }, { name: 'names', type: 'text' }],
        actions: [{ name: 'choose', exec: { script: '{{ if eq .params.force "true" }}echo forced{{ else }}echo careful{{ end }}\n{{ range split "," .params.names }}echo "n={{ . }}"\n{{ end }}' } }],
      });
      const done = await run(playbook, { force: 'true', names: 'a,$(id)' });
      expect(done.actions[0]?.result?.stdout).toBe('forced\nn=a\nn=$(id)\n');
    });
  });

  describe('sql', () => {
    let target: PostgresTarget;

    beforeAll(async () => {
      target = await startPostgresTarget();
      await createConnection(server.pool, server.running.context.config.secretKey, { name: 'template-target', type: 'postgres', url: target.url }, null);
    });
    afterAll(async () => {
      await target.close();
    });

    it.each(ATTACKS)('binds %j as one value, inside a quoted literal and out of one, and the tables stay', async (attack) => {
      const playbook = await save({
        parameters: [{ name: 'x', type: 'text' }],
        actions: [{ name: 'q', sql: { connection: 'connection://default/template-target', query: "select '{{.params.x}}'::text as whole, 'pre:{{.params.x}}' as joined, {{.params.x}}::text as bare, count(*)::int as n from samples" } }],
      });
      const done = await run(playbook, { x: attack });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.rows).toEqual([{ whole: attack, joined: `pre:${attack}`, bare: attack, n: 2 }]);
      const tables = await server.pool.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_name = 'playbooks'");
      expect(tables.rows[0]?.n).toBe(1);
    });

    it('fails the action when a template would name a table, without running the query', async () => {
      const playbook = await save({ parameters: [{ name: 't', type: 'text' }], actions: [{ name: 'q', sql: { connection: 'template-target', query: 'delete from {{.params.t}}' } }] });
      const done = await run(playbook, { t: 'samples' });
      expect(done.actions[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('names a table') });
    });
  });

  describe('http', () => {
    it('percent-encodes URL values and JSON-escapes body values, so each stays one value', async () => {
      const playbook = await save({
        parameters: [{ name: 'x', type: 'text' }],
        actions: [
          {
            name: 'call',
            http: {
              url: `${listener.url}/pods/{{.params.x}}?q={{.params.x}}`,
              method: 'post',
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              body: '{"name": "{{.params.x}}", "admin": false}',
            },
          },
        ],
      });
      const attack = 'a/../b?admin=1&x=", "admin": true, "y": "';
      const done = await run(playbook, { x: attack });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      const seen = listener.seen.at(-1);
      expect(seen?.path).toBe(`/pods/${encodeURIComponent(attack)}`);
      expect(seen?.query).toEqual({ q: attack });
      expect(JSON.parse(seen?.body ?? '')).toEqual({ name: attack, admin: false });
    });

    it('refuses a header value that would add a header, and sends nothing', async () => {
      const before = listener.seen.length;
      const playbook = await save({ parameters: [{ name: 'x', type: 'text' }], actions: [{ name: 'call', http: { url: `${listener.url}/h`, headers: [{ name: 'X-Run', value: '{{.params.x}}' }] } }] });
      const done = await run(playbook, { x: 'a\r\nX-Admin: yes' });
      expect(done.actions[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('line break') });
      expect(listener.seen.length).toBe(before);
    });
  });

  describe('retries and delays', () => {
    it('retries a failing action as its retry says, and never one without retry', async () => {
      const playbook = await save({
        actions: [
          { name: 'flaky', retry: { limit: 2, duration: '10ms', exponent: { multiplier: 2 } }, http: { url: 'http://127.0.0.1:1/refused' } },
          { name: 'once', if: 'always()', http: { url: 'http://127.0.0.1:1/refused' } },
        ],
      });
      const done = await run(playbook, {});
      expect(done.actions[0]).toMatchObject({ name: 'flaky', status: 'failed', error: expect.stringContaining('after 3 attempts') });
      expect(done.actions[1]).toMatchObject({ name: 'once', status: 'failed' });
      expect(done.actions[1]?.error).not.toContain('attempts');
    });

    it('reads a delay from CEL over the parameters', async () => {
      const playbook = await save({
        parameters: [{ name: 'delay', type: 'text', default: '0' }],
        actions: [{ name: 'later', delay: 'params.delay', if: 'params.delay != "never"', http: { url: `${listener.url}/later` } }],
      });
      expect((await run(playbook, { delay: '0' })).actions[0]).toMatchObject({ status: 'completed' });
      expect((await run(playbook, { delay: 'soon' })).actions[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('not a duration') });
    });
  });
});
