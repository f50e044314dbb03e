import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { ACTION_RUNNERS, actionType } from '../src/modules/playbooks/actions';
import type { ActionOutcome, ActionRunContext, OpenedPlaybookAction, PlaybookTarget } from '../src/modules/playbooks/types';
import { startPostgresTarget, type PostgresTarget } from './fixtures/postgres-target';
import { json, startLocalHttp, type LocalHttp } from './fixtures/scrape-peers';
import { startTestServer, type TestServer } from './harness';
import { sandboxRepository } from './fixtures/git-repository';

const IS_ROOT = process.getuid?.() === 0;
const ON_POSTGRES = inject('dbMode') === 'postgres';
const CONNECTION_PASSWORD = 'conn-secret-7788';

const pod: PlaybookTarget = {
  type: 'config',
  id: randomUUID(),
  name: 'api-7d9f',
  kind: 'Kubernetes::Pod',
  namespace: 'shop',
  tags: {},
  labels: {},
  status: null,
  health: null,
  row: {},
};

/** A process that is gone or only waits to be reaped. */
function isGone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Whether the process is gone within `ms`: SIGKILL reaches a process group at once, but on a loaded machine the kernel
 * may not have ended every member by the moment the runner returns.
 */
async function goneWithin(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!isGone(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return isGone(pid);
}

const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('playbook actions run for real against local peers', () => {
  let server: TestServer;
  const previousRole = process.env.OPSDECK_ROLE;

  function contextOf(overrides: Partial<ActionRunContext> = {}): ActionRunContext {
    return {
      pool: server.pool,
      secretKey: server.running.context.config.secretKey,
      runId: randomUUID(),
      actionId: randomUUID(),
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      params: {},
      target: null,
      ...overrides,
    };
  }

  function run(action: OpenedPlaybookAction, overrides: Partial<ActionRunContext> = {}): Promise<ActionOutcome> {
    return ACTION_RUNNERS[actionType(action)](action, contextOf(overrides));
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  describe('exec', () => {
    const exec = (script: string, env?: { name: string; value: string }[]): OpenedPlaybookAction => ({ name: 'script', exec: { script, ...(env === undefined ? {} : { env }) } });

    it.runIf(IS_ROOT)('captures stdout, stderr and the exit code, and fails on a non-zero exit', async () => {
      expect(await run(exec('echo out; echo err >&2'))).toEqual({ status: 'completed', result: { stdout: 'out\n', stderr: 'err\n', exitCode: 0 } });
      expect(await run(exec('echo partial; echo broken >&2; exit 3'))).toEqual({
        status: 'failed',
        error: 'exit code 3',
        result: { stdout: 'partial\n', stderr: 'broken\n', exitCode: 3 },
      });
    });

    it.runIf(IS_ROOT)('clones exec.checkout as the sandbox user and starts the script in it, and fails before the script when the clone fails', async () => {
      const repository = sandboxRepository({ 'go.sum': 'github.com/example/mod v1.0.0 h1:abc\n' });
      try {
        const cloned = await run({ name: 'read', exec: { script: 'head -n 1 "$READ_FILE"', env: [{ name: 'READ_FILE', value: 'go.sum' }], checkout: { url: repository.url } } });
        expect(cloned).toEqual({ status: 'completed', result: { stdout: 'github.com/example/mod v1.0.0 h1:abc\n', stderr: '', exitCode: 0 } });
        const missing = await run({ name: 'read', exec: { script: 'touch ran', checkout: { url: repository.url, branch: 'release-9' } } });
        expect(missing.status).toBe('failed');
        expect(missing.error).toContain(`The script was not started: checkout of ${repository.url} (release-9) failed`);
      } finally {
        repository.dispose();
      }
    });

    it.runIf(IS_ROOT)('runs the script as an unprivileged user', async () => {
      const outcome = await run(exec('id -u'));
      expect(outcome.status).toBe('completed');
      expect(outcome.result.stdout?.trim()).toMatch(/^\d+$/);
      expect(outcome.result.stdout?.trim()).not.toBe('0');
    });

    it.runIf(IS_ROOT)('hands parameters over as environment variables that stay inert text, never script', async () => {
      const marker = path.join(os.tmpdir(), `opsdeck-pwned-${randomBytes(6).toString('hex')}`);
      const params = { command: `$(touch ${marker})`, danger: `; touch ${marker}; rm -rf /`, 'dry-run': '`touch ' + marker + '`' };
      const outcome = await run(exec('printf "%s|" "$PARAM_COMMAND" "$PARAM_DANGER" "$PARAM_DRY_RUN"; echo \'{{ params.command }}\''), { params });
      expect(outcome).toMatchObject({ status: 'completed', result: { stdout: `${params.command}|${params.danger}|${params['dry-run']}|{{ params.command }}\n` } });
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
    });

    it.runIf(IS_ROOT)("passes the run id, the target and the action's env, and nothing of the server's environment", async () => {
      process.env.OPSDECK_PLAYBOOK_TEST_SERVER_ONLY = 'server-only-value';
      try {
        const runId = randomUUID();
        const outcome = await run(
          exec('echo "$GREETING $CONFIG_ID $CONFIG_NAME $CONFIG_TYPE $PLAYBOOK_RUN_ID $PARAM_REPLICAS"; echo "[${OPSDECK_PLAYBOOK_TEST_SERVER_ONLY:-}]"', [{ name: 'GREETING', value: 'hello world' }]),
          { runId, target: pod, params: { replicas: '3' } },
        );
        expect(outcome.result.stdout).toBe(`hello world ${pod.id} api-7d9f Kubernetes::Pod ${runId} 3\n[]\n`);
      } finally {
        Reflect.deleteProperty(process.env, 'OPSDECK_PLAYBOOK_TEST_SERVER_ONLY');
      }
    });

    it.runIf(IS_ROOT)('kills the whole process group at the timeout, children and grandchildren that ignore SIGTERM included', async () => {
      const started = performance.now();
      const outcome = await run(exec("trap '' TERM; sleep 60 & echo $!; (sleep 61 & echo $!; wait) & wait"), { timeoutMs: 1000 });
      const elapsed = performance.now() - started;
      expect(outcome).toMatchObject({ status: 'failed', error: 'timed out after 1s' });
      const pids = (outcome.result.stdout ?? '').trim().split('\n').map(Number);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(await goneWithin(pid), `process ${pid}`).toBe(true);
      expect(elapsed).toBeLessThan(10_000);
    });

    it.runIf(IS_ROOT)('kills what a timed-out script started and detached from its output once the script is gone', async () => {
      const outcome = await run(exec("(trap '' TERM; exec >/dev/null 2>&1; sleep 60; true) & echo $!; wait"), { timeoutMs: 1000 });
      expect(outcome).toMatchObject({ status: 'failed', error: 'timed out after 1s' });
      expect(await goneWithin(Number(outcome.result.stdout?.trim()))).toBe(true);
    });

    it.runIf(IS_ROOT)('neither waits for nor leaves behind the processes a finished script started in the background', async () => {
      const started = performance.now();
      const outcome = await run(exec('sleep 60 & echo $!'));
      expect(outcome.status).toBe('completed');
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await goneWithin(Number(outcome.result.stdout?.trim()))).toBe(true);
    });

    it.runIf(IS_ROOT)('stops a running script when the action is cancelled', async () => {
      const controller = new AbortController();
      // Cancelled once the script has printed, which a loaded machine may take well over a fixed delay to reach.
      const folder = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-cancel-'));
      chmodSync(folder, 0o777);
      const ready = path.join(folder, 'ready');
      const waiting = (async () => {
        while (!existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 10));
        controller.abort();
      })();
      const started = performance.now();
      const outcome = await run(exec(`echo started; touch ${ready}; sleep 30`), { signal: controller.signal, timeoutMs: 60_000 });
      await waiting;
      rmSync(folder, { recursive: true, force: true });
      expect(outcome).toMatchObject({ status: 'failed', error: 'cancelled', result: { stdout: 'started\n' } });
      expect(performance.now() - started).toBeLessThan(5000);
    });

    it.runIf(IS_ROOT)('keeps the first megabyte of a large output and says it was cut', async () => {
      const outcome = await run(exec("head -c 3000000 /dev/zero | tr '\\0' a"));
      expect(outcome.status).toBe('completed');
      expect(outcome.result.stdout).toHaveLength(1024 * 1024);
      expect(outcome.result.truncated).toBe(true);
    });

    it.runIf(!IS_ROOT)('fails with the reason when the server cannot drop the script to another user', async () => {
      expect(await run(exec('id -u'))).toMatchObject({ status: 'failed', error: expect.stringMatching(/need the server to run as root/) });
    });
  });

  describe('http', () => {
    let peer: LocalHttp;
    let elsewhere: LocalHttp;

    beforeAll(async () => {
      elsewhere = await startLocalHttp({ '/echo': (_request, response) => response.end('elsewhere') });
      peer = await startLocalHttp({
        '/api/ok': (_request, response) => response.end('hello'),
        '/api/fail': (_request, response) => response.writeHead(500).end('broken'),
        '/api/echo': (request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request)),
        '/api/moved': (_request, response) => response.writeHead(302, { location: `${elsewhere.url}/echo` }).end(),
        '/api/big': (_request, response) => response.end(Buffer.alloc(3 * 1024 * 1024, 98)),
        '/api/hang': () => undefined,
      });
      await createConnection(
        server.pool,
        server.running.context.config.secretKey,
        { name: 'peer-api', type: 'http', url: `${peer.url}/api`, username: 'opsdeck', password: CONNECTION_PASSWORD },
        null,
      );
      const key = server.running.context.config.secretKey;
      await createConnection(server.pool, key, { name: 'peer-aws', type: 'aws', url: peer.url, username: 'AKIDPEER', password: AWS_SECRET, properties: { region: 'eu-west-1' } }, null);
      await createConnection(server.pool, key, { name: 'plain-aws', type: 'aws', username: 'AKIDPLAIN', password: AWS_SECRET }, null);
    });
    afterAll(async () => {
      await peer.close();
      await elsewhere.close();
    });

    it('captures the status, headers and body of a URL', async () => {
      const outcome = await run({ name: 'get', http: { url: `${peer.url}/api/ok` } });
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { status: 200, body: 'hello', headers: expect.objectContaining({ 'content-length': '5' }), logs: expect.stringMatching(/^GET .*\/api\/ok → HTTP 200 in \d+ms$/) },
      });
    });

    it('sends nothing when a templated method rendered to no HTTP method', async () => {
      const before = peer.requests.length;
      expect(await run({ name: 'fetch', http: { url: `${peer.url}/api/ok`, method: 'FETCH' } })).toMatchObject({ status: 'failed', error: expect.stringMatching(/'FETCH' is not one of GET, POST/) });
      expect(peer.requests.length).toBe(before);
    });

    it('fails on a 5xx answer and keeps its body', async () => {
      expect(await run({ name: 'get', http: { url: `${peer.url}/api/fail` } })).toMatchObject({ status: 'failed', error: 'HTTP 500', result: { status: 500, body: 'broken' } });
    });

    it('sends the method, headers and body it was given', async () => {
      const outcome = await run({ name: 'post', http: { url: `${peer.url}/api/echo`, method: 'POST', headers: [{ name: 'x-run', value: 'r-1' }], body: '{"scale":3}' } });
      const seen = JSON.parse(outcome.result.body ?? '{}') as { method: string; headers: Record<string, string>; body: string };
      expect(seen).toMatchObject({ method: 'POST', headers: { 'x-run': 'r-1' }, body: '{"scale":3}' });
    });

    it("sends the connection's credentials to a path under it and keeps them out of the result", async () => {
      const outcome = await run({ name: 'echo', http: { connection: 'connection://default/peer-api', url: '/echo' } });
      expect(outcome.status).toBe('completed');
      expect(peer.requests.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from(`opsdeck:${CONNECTION_PASSWORD}`).toString('base64')}`);
      const kept = JSON.stringify(outcome);
      expect(kept).not.toContain(CONNECTION_PASSWORD);
      expect(kept).not.toContain(Buffer.from(`opsdeck:${CONNECTION_PASSWORD}`).toString('base64'));
      expect(kept).toContain('[REDACTED]');
    });

    it("refuses a URL that leaves the connection's origin, and sends nothing there", async () => {
      const before = elsewhere.requests.length;
      const outcome = await run({ name: 'leak', http: { connection: 'peer-api', url: `${elsewhere.url}/echo` } });
      expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/must stay on the origin/) });
      expect(elsewhere.requests.length).toBe(before);
    });

    it("signs a request with the aws connection's keys for its own endpoint (Signature Version 4), and the secret key never leaves", async () => {
      const outcome = await run({ name: 'rfc', http: { url: `${peer.url}/api/echo`, method: 'POST', body: '{"a":1}', awsSigV4: { connection: 'connection://default/peer-aws', service: 'amscm' } } });
      expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
      const seen = peer.requests.at(-1)?.headers ?? {};
      expect(seen.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDPEER\/\d{8}\/eu-west-1\/amscm\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
      expect(seen['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(JSON.stringify(peer.requests.at(-1))).not.toContain(AWS_SECRET);
      expect(JSON.stringify(outcome)).not.toContain(AWS_SECRET);
    });

    it('sends nothing signed elsewhere: not off the connection\'s endpoint, and not off AWS for a connection without one', async () => {
      const before = elsewhere.requests.length;
      const off = await run({ name: 'leak', http: { url: `${elsewhere.url}/echo`, awsSigV4: { connection: 'peer-aws', service: 's3' } } });
      expect(off).toMatchObject({ status: 'failed', error: expect.stringMatching(/not on the endpoint of connection 'peer-aws'/) });
      const plain = await run({ name: 'leak', http: { url: `${elsewhere.url}/echo`, awsSigV4: { connection: 'plain-aws', service: 's3' } } });
      expect(plain).toMatchObject({ status: 'failed', error: expect.stringMatching(/sign for AWS endpoints .* only/) });
      const wrongType = await run({ name: 'leak', http: { url: `${peer.url}/api/ok`, awsSigV4: { connection: 'peer-api', service: 's3' } } });
      expect(wrongType).toMatchObject({ status: 'failed', error: expect.stringMatching(/is of type http, not aws or s3/) });
      expect(elsewhere.requests.length).toBe(before);
    });

    it('does not follow a redirect', async () => {
      const before = elsewhere.requests.length;
      const outcome = await run({ name: 'moved', http: { connection: 'peer-api', url: 'moved' } });
      expect(outcome).toMatchObject({ status: 'completed', result: { status: 302, logs: expect.stringContaining('redirects are not followed') } });
      expect(elsewhere.requests.length).toBe(before);
    });

    it('keeps the first megabyte of a large body and says it was cut', async () => {
      const outcome = await run({ name: 'big', http: { url: `${peer.url}/api/big` } });
      expect(outcome.status).toBe('completed');
      expect(outcome.result.body).toHaveLength(1024 * 1024);
      expect(outcome.result.truncated).toBe(true);
    });

    it('stops waiting when the action is cancelled, and fails on an unknown connection', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      expect(await run({ name: 'hang', http: { url: `${peer.url}/api/hang` } }, { signal: controller.signal })).toMatchObject({ status: 'failed', error: 'cancelled' });
      expect(await run({ name: 'nowhere', http: { connection: 'connection://default/missing-api' } })).toMatchObject({
        status: 'failed',
        error: "Connection 'connection://default/missing-api' not found",
      });
    });
  });

  describe('sql', () => {
    let target: PostgresTarget;

    // Starting the second database (a PGlite over TCP on the embedded run) is slow on a busy machine: a hook, not a test.
    beforeAll(async () => {
      target = await startPostgresTarget();
      const key = server.running.context.config.secretKey;
      await createConnection(server.pool, key, { name: 'playbook-target', type: 'postgres', url: target.url }, null);
      const own = server.pool.options.connectionString ?? `postgres://postgres@${encodeURIComponent(String(server.pool.options.host))}/postgres`;
      await createConnection(server.pool, key, { name: 'console-db', type: 'postgres', url: own }, null);
    });
    afterAll(async () => {
      await target.close();
    });

    const sql = (query: string, args?: string[]): OpenedPlaybookAction => ({ name: 'query', sql: { connection: 'connection://default/playbook-target', query, ...(args === undefined ? {} : { args }) } });

    it('returns the rows and their count (also as count, Mission Control\'s name), with args bound as parameters', async () => {
      const outcome = await run(sql("select n, $1 || '-' || n as label from samples where n >= $2::integer order by n", ['sample', '1']));
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { rows: [{ n: 1, label: 'sample-1' }, { n: 2, label: 'sample-2' }], rowCount: 2, count: 2, logs: expect.stringMatching(/^2 rows from default\/playbook-target in \d+ms$/) },
      });
      const injected = await run(sql('select $1::text as value', ["1'; drop table samples; --"]));
      expect(injected.result.rows).toEqual([{ value: "1'; drop table samples; --" }]);
    });

    it('commits a write', async () => {
      const before = await target.writes();
      expect(await run(sql('insert into writes values ($1::integer)', ['7']))).toMatchObject({ status: 'completed', result: { rows: [], rowCount: 1 } });
      expect(await target.writes()).toBe(before + 1);
    });

    it('fails a failing query with its error and runs only one statement', async () => {
      expect(await run(sql('select * from missing_table'))).toMatchObject({ status: 'failed', error: expect.stringMatching(/missing_table/) });
      const before = await target.writes();
      expect(await run(sql('insert into writes values (1); insert into writes values (2)'))).toMatchObject({ status: 'failed' });
      expect(await target.writes()).toBe(before);
    });

    it('keeps the first thousand rows and the full count', async () => {
      const outcome = await run(sql('select generate_series(1, 1500) as n'));
      expect(outcome.result.rows).toHaveLength(1000);
      expect(outcome.result).toMatchObject({ rowCount: 1500, truncated: true });
    });

    it("refuses the console's own database with the error code", async () => {
      const outcome = await run({ name: 'escalate', sql: { connection: 'console-db', query: "update people set name = 'pwned'" } });
      expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/^OD_OWN_DATABASE: Refusing to run/) });
      const pwned = await server.pool.query("select 1 from people where name = 'pwned'");
      expect(pwned.rowCount).toBe(0);
    });

    it('fails an unknown connection and one that is not a SQL database', async () => {
      expect(await run({ name: 'q', sql: { connection: 'no-such-db', query: 'select 1' } })).toMatchObject({ status: 'failed', error: "Connection 'no-such-db' not found" });
      await createConnection(server.pool, server.running.context.config.secretKey, { name: 'not-sql', type: 'http', url: 'http://127.0.0.1:9' }, null);
      expect(await run({ name: 'q', sql: { connection: 'not-sql', query: 'select 1' } })).toMatchObject({
        status: 'failed',
        error: 'Connection default/not-sql is of type http, not a postgres or mysql database',
      });
    });

    it.runIf(ON_POSTGRES)('stops a query at the statement timeout, which is the action timeout', async () => {
      expect(await run(sql('select pg_sleep(30)'), { timeoutMs: 1000 })).toMatchObject({ status: 'failed', error: expect.stringMatching(/statement timeout/) });
    });

    it.runIf(ON_POSTGRES)('stops a query when the action is cancelled and leaves no write behind', async () => {
      const before = await target.writes();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const started = performance.now();
      const outcome = await run(sql('insert into writes select 1 from pg_sleep(30)'), { signal: controller.signal, timeoutMs: 60_000 });
      expect(outcome).toMatchObject({ status: 'failed', error: 'cancelled' });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await target.writes()).toBe(before);
    });
  });

  describe('notification', () => {
    let slack: LocalHttp;

    beforeAll(async () => {
      slack = await startLocalHttp({ '/api/chat.postMessage': json({ ok: true, channel: 'C042', ts: '1700000000.000100' }) });
      const key = server.running.context.config.secretKey;
      await createConnection(server.pool, key, { name: 'ops-slack', type: 'slack', url: slack.url, password: 'xoxb-token-1234', properties: { channel: '#ops' } }, null);
      await createConnection(server.pool, key, { name: 'reports-db', type: 'postgres', url: 'postgres://127.0.0.1:9/reports' }, null);
      await createConnection(server.pool, key, { name: 'old-hook', type: 'slackwebhook', url: 'http://127.0.0.1:9/hook' }, null);
    });
    afterAll(async () => {
      await slack.close();
    });

    it("delivers the message through the connection's provider with its secret, a property overriding the channel", async () => {
      const runId = randomUUID();
      const actionId = randomUUID();
      const outcome = await run(
        { name: 'tell', notification: { connection: 'connection://default/ops-slack', title: 'Disk full on api-7d9f', message: 'Cleaned **2 GB** of logs', properties: { channel: '#incidents' } } },
        { runId, actionId },
      );
      expect(outcome).toEqual({
        status: 'completed',
        result: { logs: 'Sent through ops-slack (slack): Disk full on api-7d9f [1700000000.000100]', body: 'Cleaned **2 GB** of logs' },
      });
      const request = slack.requests.at(-1);
      expect(request?.headers.authorization).toBe('Bearer xoxb-token-1234');
      expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ channel: '#incidents', text: expect.stringMatching(/^\*Disk full on api-7d9f\*\nCleaned \S*\*2 GB\*\S* of logs/) });
    });

    it('fails with the reason the provider gave, never its secret', async () => {
      const refusing = await startLocalHttp({
        '/api/chat.postMessage': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'channel_not_found' })),
      });
      try {
        await createConnection(server.pool, server.running.context.config.secretKey, { name: 'gone-slack', type: 'slack', url: refusing.url, password: 'xoxb-secret-9876' }, null);
        const outcome = await run({ name: 'tell', notification: { connection: 'gone-slack', title: 't', message: 'm', properties: { channel: '#gone' } } });
        expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('channel_not_found') });
        expect(JSON.stringify(outcome)).not.toContain('xoxb-secret-9876');
      } finally {
        await refusing.close();
      }
    });

    it('fails on an unknown connection, on one that is not a notification connection and on a type it cannot deliver to', async () => {
      expect(await run({ name: 'tell', notification: { connection: 'nobody-home', title: 't', message: 'm' } })).toMatchObject({
        status: 'failed',
        error: "Connection 'nobody-home' not found",
      });
      for (const name of ['reports-db', 'old-hook']) {
        expect(await run({ name: 'tell', notification: { connection: name, title: 't', message: 'm' } })).toMatchObject({
          status: 'failed',
          error: expect.stringMatching(new RegExp(`^Connection default/${name} is of type \\w+, which notifications cannot deliver to \\(email, slack, generic_webhook`)),
        });
      }
    });
  });
});
