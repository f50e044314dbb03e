import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { PlaybookWorker, PLAYBOOK_CRASH_ERROR } from '../src/modules/playbooks/playbook-worker';
import { requestPlaybookRun } from '../src/modules/playbooks/run-store';
import { startTestServer, type TestServer } from './harness';
import { sandboxRepository } from './fixtures/git-repository';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Assigning undefined to process.env stores the text 'undefined'. */
function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

interface Peer {
  url: string;
  /** Requests seen per `n` query value. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A local HTTP peer: /echo answers what it got, /fail answers 500, /slow?ms= answers after a while. */
async function startPeer(): Promise<Peer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://peer');
    const n = url.searchParams.get('n');
    if (n !== null) hits.set(n, (hits.get(n) ?? 0) + 1);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (url.pathname === '/fail') {
        response.writeHead(500).end('broken');
        return;
      }
      const answer = (): void => {
        if (!response.destroyed) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: url.pathname, query: Object.fromEntries(url.searchParams), body }));
      };
      if (url.pathname === '/slow') {
        const timer = setTimeout(answer, Number(url.searchParams.get('ms') ?? '1000'));
        response.on('close', () => clearTimeout(timer));
        return;
      }
      answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface JobRow {
  status: string;
  success_count: number;
  error_count: number;
  details: { run_id: string; errors: string[] };
}

describe('playbook runs: requests, the worker, cancel, approval and crash recovery', () => {
  let server: TestServer;
  let peer: Peer;
  let worker: PlaybookWorker;
  const cookies: Record<'admin' | 'editor' | 'responder' | 'viewer' | 'commander', string> = { admin: '', editor: '', responder: '', viewer: '', commander: '' };
  const previousRole = process.env.OPSDECK_ROLE;

  const newWorker = (): PlaybookWorker =>
    new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 3000, onError: (error) => console.error(error) });

  async function createPlaybook(spec: Record<string, unknown>): Promise<string> {
    const row = await server.pool.query<{ id: string }>('insert into playbooks (name, spec) values ($1, $2) returning id', [
      `test-${randomUUID().slice(0, 8)}`,
      JSON.stringify(spec),
    ]);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error('no playbook id');
    return id;
  }

  async function requestRun(playbookId: string, extra: Record<string, unknown> = {}, cookie = cookies.editor): Promise<string> {
    const reply = await server.call('POST', '/api/playbook/run', cookie, { id: playbookId, ...extra });
    expect(reply.status, reply.text).toBe(201);
    return String(reply.json.run_id);
  }

  async function getRun(id: string): Promise<PlaybookRun> {
    const reply = await server.call('GET', `/api/playbook/run/${id}`, cookies.viewer);
    expect(reply.status, reply.text).toBe(200);
    return reply.json as unknown as PlaybookRun;
  }

  async function statusOf(id: string): Promise<string> {
    const row = await server.pool.query<{ status: string }>('select status from playbook_runs where id = $1', [id]);
    return row.rows[0]?.status ?? 'missing';
  }

  /** Lets `runner` claim and advance runs until the run has finished. */
  async function drive(id: string, runner: PlaybookWorker = worker, timeoutMs = 20_000): Promise<PlaybookRun> {
    const deadline = Date.now() + timeoutMs;
    while (!FINAL.has(await statusOf(id))) {
      if (Date.now() > deadline) throw new Error(`run ${id} is still ${await statusOf(id)}`);
      await runner.runDue();
      await sleep(50);
    }
    return getRun(id);
  }

  async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  async function jobsOf(runId: string): Promise<JobRow[]> {
    const rows = await server.pool.query<JobRow>(
      `select status, success_count, error_count, details from job_history where name = 'PlaybookRun' and details ->> 'run_id' = $1`,
      [runId],
    );
    return rows.rows;
  }

  async function eventsOf(name: string, runId: string): Promise<Array<Record<string, unknown>>> {
    const rows = await server.pool.query<{ properties: Record<string, unknown> }>(
      `select properties from event_queue where name = $1 and properties ->> 'run_id' = $2`,
      [name, runId],
    );
    return rows.rows.map((row) => row.properties);
  }

  const echo = (name: string, query = ''): Record<string, unknown> => ({ name, http: { url: `${peer.url}/echo${query}` } });

  beforeAll(async () => {
    // The api role starts no worker of its own: each test drives workers explicitly.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    peer = await startPeer();
    worker = newWorker();
    for (const role of Object.keys(cookies) as Array<keyof typeof cookies>) cookies[role] = await server.cookieFor(role);
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_ROLE', previousRole);
    await server.close();
    await peer.close();
  });

  describe('requesting a run', () => {
    it('refuses an unknown or deleted playbook with 404 OD_PLAYBOOK_NOT_FOUND', async () => {
      const unknown = await server.call('POST', '/api/playbook/run', cookies.editor, { id: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.json.code).toBe('OD_PLAYBOOK_NOT_FOUND');
      const deleted = await createPlaybook({ actions: [echo('one')] });
      await server.pool.query('update playbooks set deleted_at = now() where id = $1', [deleted]);
      const reply = await server.call('POST', '/api/playbook/run', cookies.editor, { id: deleted });
      expect(reply.json.code).toBe('OD_PLAYBOOK_NOT_FOUND');
    });

    it('refuses a target the playbook is not offered for, an unknown one, a missing one and two at once with 400 OD_PLAYBOOK_TARGET', async () => {
      const pod = await server.pool.query<{ id: string; type: string }>(`select id, type from config_items where deleted_at is null and type is not null limit 1`);
      const config = pod.rows[0];
      if (config === undefined) throw new Error('the demo has no config');
      const other = await server.pool.query<{ id: string }>(`select id from config_items where deleted_at is null and type <> $1 limit 1`, [config.type]);
      const playbook = await createPlaybook({ configs: [{ types: [config.type] }], actions: [echo('one')] });
      const cases: Array<Record<string, unknown>> = [
        { config_id: other.rows[0]?.id },
        { config_id: randomUUID() },
        { config_id: 'not-an-id' },
        {},
        { config_id: config.id, check_id: randomUUID() },
      ];
      for (const extra of cases) {
        const reply = await server.call('POST', '/api/playbook/run', cookies.editor, { id: playbook, ...extra });
        expect(reply.status, JSON.stringify(extra)).toBe(400);
        expect(reply.json.code).toBe('OD_PLAYBOOK_TARGET');
      }
      const run = await requestRun(playbook, { config_id: config.id });
      expect((await getRun(run)).target).toMatchObject({ type: 'config', id: config.id, kind: config.type });
      expect((await drive(run)).status).toBe('completed');
    });

    it('refuses bad parameters with 400 OD_PLAYBOOK_PARAMS, naming each one with its message in details', async () => {
      const playbook = await createPlaybook({
        parameters: [
          { name: 'replicas', type: 'text', required: true, properties: { format: 'number', min: 1, max: 5 } },
          { name: 'confirm', type: 'checkbox' },
          { name: 'owner', type: 'team' },
        ],
        actions: [echo('one')],
      });
      const reply = await server.call('POST', '/api/playbook/run', cookies.editor, {
        id: playbook,
        params: { replicas: '9', confirm: 'maybe', owner: randomUUID(), extra: 'x' },
      });
      expect(reply.status).toBe(400);
      expect(reply.json.code).toBe('OD_PLAYBOOK_PARAMS');
      expect(JSON.parse(String(reply.json.details))).toEqual({
        replicas: 'Must be at most 5',
        confirm: 'Must be true or false',
        owner: 'This team does not exist',
        extra: 'Unknown parameter',
      });
      const missing = await server.call('POST', '/api/playbook/run', cookies.editor, { id: playbook, params: {} });
      expect(JSON.parse(String(missing.json.details))).toEqual({ replicas: 'This field is required' });
      const run = await requestRun(playbook, { params: { replicas: 3, confirm: true } });
      expect((await getRun(run)).parameters).toEqual({ replicas: '3', confirm: 'true' });
      await drive(run);
    });

    it('lets an editor and an admin request runs, and refuses a viewer and a responder with 403', async () => {
      const playbook = await createPlaybook({ actions: [echo('one')] });
      for (const role of ['viewer', 'responder'] as const) {
        const reply = await server.call('POST', '/api/playbook/run', cookies[role], { id: playbook });
        expect(reply.status, role).toBe(403);
      }
      const runs = [await requestRun(playbook, {}, cookies.editor), await requestRun(playbook, {}, cookies.admin)];
      for (const run of runs) expect((await drive(run)).status).toBe('completed');
      const created = await getRun(runs[1] ?? '');
      expect(created.created_by_name).not.toBeNull();
    });

    it('keeps the spec the run was requested with when the playbook is edited afterwards', async () => {
      const playbook = await createPlaybook({ actions: [echo('first', '?v=old')] });
      const run = await requestRun(playbook);
      await server.pool.query('update playbooks set spec = $2 where id = $1', [playbook, JSON.stringify({ actions: [echo('renamed', '?v=new')] })]);
      const done = await drive(run);
      expect(done.actions.map((action) => action.name)).toEqual(['first']);
      expect(done.actions[0]?.result?.body).toContain('"v":"old"');
    });
  });

  describe('offering playbooks and their parameters', () => {
    it('lists the playbooks whose selectors match a config, and resolves parameter defaults from it', async () => {
      const found = await server.pool.query<{ id: string; name: string; type: string }>(`select id, name, type from config_items where deleted_at is null and type is not null limit 1`);
      const config = found.rows[0];
      if (config === undefined) throw new Error('the demo has no config');
      const offered = await createPlaybook({
        configs: [{ types: [config.type] }],
        parameters: [{ name: 'target', type: 'text', default: '{{ config.name }}' }],
        actions: [echo('one')],
      });
      const elsewhere = await createPlaybook({ configs: [{ types: ['Nothing::Here'] }], actions: [echo('one')] });
      const list = await server.call('GET', `/api/playbook/list?config_id=${config.id}`, cookies.viewer);
      expect(list.status).toBe(200);
      const ids = (list.json as unknown as Array<{ id: string }>).map((playbook) => playbook.id);
      expect(ids).toContain(offered);
      expect(ids).not.toContain(elsewhere);
      const params = await server.call('POST', `/api/playbook/${offered}/params`, cookies.viewer, { config_id: config.id });
      expect(params.status).toBe(200);
      expect(params.json.params).toEqual([{ name: 'target', type: 'text', default: config.name }]);
      const unknown = await server.call('GET', `/api/playbook/list?config_id=${randomUUID()}`, cookies.viewer);
      expect(unknown.json.code).toBe('OD_PLAYBOOK_TARGET');
    });
  });

  describe('the targets a run may take', () => {
    it("lists only the checks the playbook's selectors offer it on, by name, narrowed by what is typed", async () => {
      const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, namespace) values ('picker-canary', 'payments') returning id`);
      const canaryId = canary.rows[0]?.id;
      await server.pool.query(
        `insert into checks (canary_id, type, name, labels) values
           ($1, 'http', 'picker api', '{"team": "payments"}'), ($1, 'http', 'picker web', '{"team": "web"}'), ($1, 'tcp', 'picker db', '{"team": "payments"}')`,
        [canaryId],
      );
      const playbook = await createPlaybook({ checks: [{ types: ['http'], labelSelector: 'team=payments' }], actions: [echo('one')] });
      const targets = async (query: string) => {
        const reply = await server.call('GET', `/api/playbook/${playbook}/targets?${query}`, cookies.viewer);
        expect(reply.status, reply.text).toBe(200);
        return (reply.json as unknown as Array<{ name: string; detail: string | null }>).map((option) => `${option.name} (${option.detail ?? ''})`);
      };
      expect(await targets('type=check&search=picker')).toEqual(['picker api (http)']);
      expect(await targets('type=check&search=web')).toEqual([]);
      expect(await targets('type=component&search=picker')).toEqual([]);
      const refused = await server.call('GET', `/api/playbook/${playbook}/targets?type=canary`, cookies.viewer);
      expect(refused.status).toBe(400);
      const missing = await server.call('GET', `/api/playbook/${randomUUID()}/targets?type=check`, cookies.viewer);
      expect(missing.status).toBe(404);
    });
  });

  describe('running', () => {
    it('runs the actions in order to completed, each reading the earlier results, with job_history and an event', async () => {
      const playbook = await createPlaybook({
        parameters: [{ name: 'who', type: 'text' }],
        actions: [
          { name: 'first', http: { url: `${peer.url}/echo?who={{ params.who }}` } },
          { name: 'second', http: { url: `${peer.url}/echo`, method: 'POST', body: "{{ actions['first'].result.status }}" } },
        ],
      });
      const runId = await requestRun(playbook, { params: { who: 'world' } });
      expect((await getRun(runId)).status).toBe('pending');
      const run = await drive(runId);
      expect(run).toMatchObject({ status: 'completed', error: null, playbooks: { id: playbook } });
      expect(run.start_time).not.toBeNull();
      expect(run.end_time).not.toBeNull();
      expect(run.actions.map((action) => [action.name, action.status])).toEqual([
        ['first', 'completed'],
        ['second', 'completed'],
      ]);
      expect(run.actions[0]?.result).toMatchObject({ status: 200 });
      expect(run.actions[0]?.result?.body).toContain('"who":"world"');
      expect(run.actions[1]?.result?.body).toContain('"body":"200"');
      const action = await server.call('GET', `/api/playbook/run/action/${run.actions[1]?.id ?? ''}`, cookies.viewer);
      expect(action.json).toMatchObject({ name: 'second', status: 'completed', playbook_run_id: runId });
      expect(await jobsOf(runId)).toEqual([{ status: 'SUCCESS', success_count: 2, error_count: 0, details: { run_id: runId, status: 'completed', errors: [] } }]);
      expect(await eventsOf('playbook.run.completed', runId)).toEqual([{ run_id: runId, playbook_id: playbook, status: 'completed', error: null }]);
    });

    it('skips an action whose if is false and runs the next one', async () => {
      const playbook = await createPlaybook({
        parameters: [{ name: 'go', type: 'text' }],
        actions: [{ ...echo('maybe'), if: "params.go == 'yes'" }, echo('after')],
      });
      const run = await drive(await requestRun(playbook, { params: { go: 'no' } }));
      expect(run.status).toBe('completed');
      expect(run.actions.map((action) => [action.name, action.status])).toEqual([
        ['maybe', 'skipped'],
        ['after', 'completed'],
      ]);
    });

    it('after a failed action skips the default ones, runs always() and failure() ones, and fails the run', async () => {
      const playbook = await createPlaybook({
        actions: [
          { name: 'broken', http: { url: `${peer.url}/fail` } },
          echo('next'),
          { ...echo('cleanup'), if: 'always()' },
          { ...echo('alert'), if: 'failure()' },
          { ...echo('only-on-success'), if: 'success()' },
        ],
      });
      const runId = await requestRun(playbook);
      const run = await drive(runId);
      expect(run.status).toBe('failed');
      expect(run.error).toBeNull();
      expect(run.actions.map((action) => [action.name, action.status])).toEqual([
        ['broken', 'failed'],
        ['next', 'skipped'],
        ['cleanup', 'completed'],
        ['alert', 'completed'],
        ['only-on-success', 'skipped'],
      ]);
      expect(run.actions[0]?.error).toBe('HTTP 500');
      expect(await jobsOf(runId)).toEqual([
        { status: 'FAILED', success_count: 2, error_count: 1, details: { run_id: runId, status: 'failed', errors: ['broken: HTTP 500'] } },
      ]);
      expect(await eventsOf('playbook.run.failed', runId)).toHaveLength(1);
    });

    it('sleeps a delayed action with the run scheduled and no worker holding it, then runs it', async () => {
      const playbook = await createPlaybook({ actions: [echo('now'), { ...echo('later'), delay: '2s' }] });
      const runId = await requestRun(playbook);
      await worker.runDue();
      const sleeping = await getRun(runId);
      expect(sleeping.status).toBe('scheduled');
      expect(sleeping.actions.map((action) => [action.name, action.status])).toEqual([
        ['now', 'completed'],
        ['later', 'sleeping'],
      ]);
      const held = await server.pool.query<{ locked_by: string | null; wait: number }>(
        `select locked_by, extract(epoch from scheduled_time - now()) as wait from playbook_runs where id = $1`,
        [runId],
      );
      expect(held.rows[0]?.locked_by).toBeNull();
      expect(Number(held.rows[0]?.wait)).toBeGreaterThan(0.5);
      await worker.runDue();
      expect(await statusOf(runId)).toBe('scheduled');
      const run = await drive(runId);
      expect(run.status).toBe('completed');
      expect(run.actions.map((action) => action.status)).toEqual(['completed', 'completed']);
    });

    it('fails an action that runs past its timeout, and goes on with the run', async () => {
      const playbook = await createPlaybook({
        actions: [
          { name: 'slow', timeout: '1s', http: { url: `${peer.url}/slow?ms=8000` } },
          { ...echo('report'), if: 'always()' },
        ],
      });
      const started = Date.now();
      const run = await drive(await requestRun(playbook));
      expect(Date.now() - started).toBeLessThan(7000);
      expect(run.status).toBe('failed');
      expect(run.actions[0]).toMatchObject({ status: 'failed', error: 'The action timed out after 1s' });
      expect(run.actions[1]?.status).toBe('completed');
    });

    it('fails a run whose stored spec no longer parses with the reason as its error', async () => {
      const playbook = await createPlaybook({ actions: [echo('one')] });
      const runId = await requestRun(playbook);
      await server.pool.query(`update playbook_runs set spec = '{"actions": "none"}' where id = $1`, [runId]);
      const run = await drive(runId);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/^The playbook spec is not valid/);
      expect(run.actions).toEqual([]);
      expect((await jobsOf(runId))[0]?.details.errors[0]).toMatch(/^The playbook spec is not valid/);
    });
  });

  describe.runIf(process.getuid?.() === 0)('exec actions', () => {
    it('runs a script with the parameters as environment variables and keeps stdout, stderr and the exit code', async () => {
      const playbook = await createPlaybook({
        parameters: [{ name: 'who', type: 'text' }],
        actions: [{ name: 'greet', exec: { script: 'echo "hello $PARAM_WHO"; echo "careful" >&2' } }],
      });
      const run = await drive(await requestRun(playbook, { params: { who: '$(id)' } }, cookies.admin));
      expect(run.status).toBe('completed');
      expect(run.actions[0]?.result).toMatchObject({ stdout: 'hello $(id)\n', stderr: 'careful\n', exitCode: 0 });
    });

    it("clones the action's checkout and runs the script in it, as Mission Control's exec-checkout playbook does", async () => {
      const repository = sandboxRepository({ 'go.sum': 'github.com/example/artifacts v1.2.3 h1:xyz\n' });
      try {
        const playbook = await createPlaybook({
          actions: [{ name: 'read', exec: { script: 'head -n 1 $READ_FILE', env: [{ name: 'READ_FILE', value: 'go.sum' }], checkout: { url: repository.url } } }],
        });
        const run = await drive(await requestRun(playbook, {}, cookies.admin));
        expect(run.status, JSON.stringify(run.actions)).toBe('completed');
        expect(run.actions[0]?.result).toMatchObject({ stdout: 'github.com/example/artifacts v1.2.3 h1:xyz\n', exitCode: 0 });
      } finally {
        repository.dispose();
      }
    });

    it('kills a script that runs past its timeout', async () => {
      const playbook = await createPlaybook({ actions: [{ name: 'hang', timeout: '1s', exec: { script: 'sleep 30 & sleep 30' } }] });
      const started = Date.now();
      const run = await drive(await requestRun(playbook, {}, cookies.admin));
      expect(Date.now() - started).toBeLessThan(8000);
      expect(run.actions[0]).toMatchObject({ status: 'failed', error: 'The action timed out after 1s' });
    });
  });

  describe('cancelling', () => {
    it('aborts the running action, creates no later action, and records the run as cancelled and STOPPED', async () => {
      const playbook = await createPlaybook({ actions: [{ name: 'slow', timeout: '30s', http: { url: `${peer.url}/slow?ms=20000` } }, echo('never')] });
      const runId = await requestRun(playbook);
      const driving = worker.runDue();
      await waitFor(async () => (await getRun(runId)).actions[0]?.status === 'running', 'the action to run');
      const started = Date.now();
      const cancelled = await server.call('POST', `/api/playbook/run/${runId}/cancel`, cookies.editor);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.json.status).toBe('cancelled');
      await driving;
      expect(Date.now() - started).toBeLessThan(5000);
      const run = await getRun(runId);
      expect(run.status).toBe('cancelled');
      expect(run.end_time).not.toBeNull();
      expect(run.actions.map((action) => [action.name, action.status, action.error])).toEqual([['slow', 'cancelled', 'The run was cancelled']]);
      expect((await jobsOf(runId)).map((job) => job.status)).toEqual(['STOPPED']);
      expect(await eventsOf('playbook.run.cancelled', runId)).toHaveLength(1);
      const again = await server.call('POST', `/api/playbook/run/${runId}/cancel`, cookies.editor);
      expect(again.status).toBe(400);
      expect(again.json.code).toBe('OD_PLAYBOOK_RUN_FINISHED');
    });

    it('closes a sleeping run at once, and refuses a viewer', async () => {
      const playbook = await createPlaybook({ actions: [{ ...echo('later'), delay: '1h' }] });
      const runId = await requestRun(playbook);
      await worker.runDue();
      expect(await statusOf(runId)).toBe('scheduled');
      expect((await server.call('POST', `/api/playbook/run/${runId}/cancel`, cookies.viewer)).status).toBe(403);
      const reply = await server.call('POST', `/api/playbook/run/${runId}/cancel`, cookies.editor);
      expect(reply.status).toBe(200);
      const run = await getRun(runId);
      expect(run.status).toBe('cancelled');
      expect(run.actions.map((action) => action.status)).toEqual(['cancelled']);
      expect((await jobsOf(runId)).map((job) => job.status)).toEqual(['STOPPED']);
      const missing = await server.call('POST', `/api/playbook/run/${randomUUID()}/cancel`, cookies.editor);
      expect(missing.status).toBe(404);
    });
  });

  describe('approval', () => {
    it('waits for a listed approver, refuses anyone else with 403, and runs once approved', async () => {
      const playbook = await createPlaybook({ approval: { approvers: { people: ['editor@opsdeck.local'] } }, actions: [echo('one')] });
      const runId = await requestRun(playbook, {}, cookies.admin);
      const waiting = await getRun(runId);
      expect(waiting.status).toBe('waiting');
      expect(waiting.approval).toEqual({ type: 'any', people: ['editor@opsdeck.local'], teams: [], approved_by: [] });
      await worker.runDue();
      expect(await statusOf(runId)).toBe('waiting');
      const stranger = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies.commander);
      expect(stranger.status).toBe(403);
      expect(stranger.json.code).toBe('OD_PLAYBOOK_NOT_APPROVER');
      const wrongPlaybook = await server.call('POST', `/api/playbook/run/approve/${randomUUID()}/${runId}`, cookies.editor);
      expect(wrongPlaybook.status).toBe(404);
      const approved = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies.editor);
      expect(approved.status, approved.text).toBe(200);
      expect(approved.json.status).toBe('pending');
      expect((approved.json.approval as { approved_by: string[] }).approved_by).toHaveLength(1);
      const editor = await server.pool.query<{ id: string }>(`select id from people where email = 'editor@opsdeck.local'`);
      expect(await eventsOf('playbook.approval.inserted', runId)).toEqual([{ run_id: runId, playbook_id: playbook, person_id: editor.rows[0]?.id }]);
      expect((await drive(runId)).status).toBe('completed');
      const late = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies.editor);
      expect(late.status).toBe(400);
      expect(late.json.code).toBe('OD_PLAYBOOK_RUN_NOT_WAITING');
    });

    it('with type all waits for every listed person and one member of every listed team', async () => {
      const team = await server.pool.query<{ id: string }>(`insert into teams (name) values ($1) returning id`, [`approvers-${randomUUID().slice(0, 6)}`]);
      const teamId = team.rows[0]?.id ?? '';
      await server.pool.query(`insert into team_members (team_id, person_id) select $1, id from people where email = 'commander@opsdeck.local'`, [teamId]);
      const playbook = await createPlaybook({ approval: { type: 'all', approvers: { people: ['editor@opsdeck.local'], teams: [teamId] } }, actions: [echo('one')] });
      const runId = await requestRun(playbook, {}, cookies.admin);
      const first = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies.editor);
      expect(first.json.status).toBe('waiting');
      const second = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies.commander);
      expect(second.status, second.text).toBe(200);
      expect(second.json.status).toBe('pending');
      expect(await eventsOf('playbook.approval.inserted', runId)).toHaveLength(2);
      expect((await drive(runId)).status).toBe('completed');
    });
  });

  describe('workers and leases', () => {
    it('never lets two workers run the same run', async () => {
      const playbook = await createPlaybook({
        parameters: [{ name: 'n', type: 'text' }],
        actions: [{ name: 'call', http: { url: `${peer.url}/slow?ms=150&n={{ params.n }}` } }],
      });
      const runs: string[] = [];
      for (let n = 0; n < 8; n += 1) runs.push(await requestRun(playbook, { params: { n: `pair-${n}` } }));
      const one = newWorker();
      const two = newWorker();
      const claimedBy = new Map<string, number>();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const statuses = await Promise.all(runs.map(statusOf));
        if (statuses.every((status) => FINAL.has(status))) break;
        if (Date.now() > deadline) throw new Error(`runs still unfinished: ${statuses.join(', ')}`);
        const [a, b] = await Promise.all([one.runDue(), two.runDue()]);
        for (const id of [...a, ...b]) claimedBy.set(id, (claimedBy.get(id) ?? 0) + 1);
      }
      for (const id of runs) expect(claimedBy.get(id), id).toBe(1);
      for (let n = 0; n < 8; n += 1) expect(peer.hits.get(`pair-${n}`)).toBe(1);
      const rows = await server.pool.query<{ count: number }>('select count(*)::int as count from playbook_run_actions where playbook_run_id = any($1::uuid[])', [runs]);
      expect(rows.rows[0]?.count).toBe(8);
      for (const id of runs) expect(await jobsOf(id)).toHaveLength(1);
    });

    it('takes over a run whose lease expired: the interrupted action fails with the crash error and the run goes on to finish', async () => {
      const playbook = await createPlaybook({ actions: [echo('interrupted'), { ...echo('cleanup'), if: 'always()' }, echo('default')] });
      const { runId } = await requestPlaybookRun(server.pool, { playbookId: playbook, target: null, params: {}, createdBy: null });
      await server.pool.query(
        `update playbook_runs set status = 'running', start_time = now(), locked_by = 'crashed-host:1:dead', locked_until = now() - interval '1 second' where id = $1`,
        [runId],
      );
      await server.pool.query(
        `insert into playbook_run_actions (playbook_run_id, name, position, status, start_time) values ($1, 'interrupted', 0, 'running', now())`,
        [runId],
      );
      const run = await drive(runId);
      expect(run.status).toBe('failed');
      expect(run.actions.map((action) => [action.name, action.status])).toEqual([
        ['interrupted', 'failed'],
        ['cleanup', 'completed'],
        ['default', 'skipped'],
      ]);
      expect(run.actions[0]?.error).toBe(PLAYBOOK_CRASH_ERROR);
      expect((await jobsOf(runId))[0]?.details.errors).toEqual([`interrupted: ${PLAYBOOK_CRASH_ERROR}`]);
      const left = await server.pool.query(`select 1 from playbook_runs where id = $1 and locked_by is not null`, [runId]);
      expect(left.rowCount).toBe(0);
    });

    it('leaves a run whose lease is still held alone', async () => {
      const playbook = await createPlaybook({ actions: [echo('one')] });
      const { runId } = await requestPlaybookRun(server.pool, { playbookId: playbook, target: null, params: {}, createdBy: null });
      await server.pool.query(
        `update playbook_runs set status = 'running', locked_by = 'alive-host:1:live', locked_until = now() + interval '1 minute' where id = $1`,
        [runId],
      );
      expect(await worker.runDue()).not.toContain(runId);
      expect(await statusOf(runId)).toBe('running');
      await server.pool.query(`update playbook_runs set status = 'cancelled', locked_by = null, locked_until = null where id = $1`, [runId]);
    });

    it('hands a run back when its worker stops mid-action, with the action failed and the run finished by the next worker', async () => {
      const playbook = await createPlaybook({ actions: [{ name: 'slow', http: { url: `${peer.url}/slow?ms=20000` } }, { ...echo('cleanup'), if: 'always()' }] });
      const runId = await requestRun(playbook);
      const stopping = newWorker();
      stopping.start();
      await waitFor(async () => (await getRun(runId)).actions[0]?.status === 'running', 'the action to run');
      await stopping.stop();
      expect(await statusOf(runId)).toBe('pending');
      const run = await drive(runId);
      expect(run.status).toBe('failed');
      expect(run.actions.map((action) => [action.name, action.status, action.error])).toEqual([
        ['slow', 'failed', PLAYBOOK_CRASH_ERROR],
        ['cleanup', 'completed', null],
      ]);
    });
  });
});
