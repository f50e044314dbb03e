import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler, type RecordedRun } from '../../src/modules/health/check-scheduler';
import { loadConfig } from '../../src/platform/config';
import { createConnection as createStoredConnection } from '../../src/modules/connections/connection-store';
import { startTestServer, type JsonReply, type TestServer } from '../harness';
import { callWithToken, createApiToken } from '../audit-support';
import { sandboxRepository } from '../fixtures/git-repository';

/**
 * Issue #8, holes 2 and 4: an editor's exec check ran as root, read DATA_DIR/secret.key, and echoed a sealed secret
 * that a viewer then read. Each test performs the attack and asserts it fails.
 */

const IS_ROOT = process.getuid?.() === 0;
const EXEC_REFUSED = 'Exec checks need the execute permission';
const SEALED_SECRET = 'sealed-canary-secret-4242';
/** Set in the server's environment while the checks run; a script must not see it. */
const SERVER_ONLY_VARIABLE = 'OPSDECK_EXEC_TEST_SERVER_ONLY';

interface CanaryResponse {
  id: string;
  checks: { id: string; type: string; name: string }[];
}

function expectExecRefused(reply: JsonReply, label: string): void {
  expect(reply.status, `${label}: ${reply.text}`).toBe(403);
  expect(reply.json.message, label).toBe(EXEC_REFUSED);
}

describe('exec checks need the execute permission, run sandboxed, and their output is scrubbed', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let commander: string;
  let viewer: string;
  let execCanary: CanaryResponse;
  let webCanary: CanaryResponse;
  let execCheckId: string;
  let httpCheckId: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const stored = async (): Promise<{ canaries: unknown[]; checks: unknown[] }> => ({
    canaries: (await server.pool.query('select id, name, spec, deleted_at from canaries where id = any($1) order by id', [[execCanary.id, webCanary.id]])).rows,
    checks: (await server.pool.query('select id, type, name, spec, deleted_at from checks where canary_id = any($1) order by id', [[execCanary.id, webCanary.id]])).rows,
  });

  async function createCanary(cookie: string, name: string, spec: Record<string, unknown>): Promise<CanaryResponse> {
    const reply = await server.call('POST', '/api/canary/canaries', cookie, { name, spec });
    expect(reply.status, reply.text).toBe(201);
    return reply.json as unknown as CanaryResponse;
  }

  /** Runs the checks of one canary now, and nothing else that happens to be due. */
  async function runCanary(canaryId: string): Promise<RecordedRun[]> {
    await server.pool.query(`update checks set next_runtime = now() + interval '1 day' where canary_id <> $1`, [canaryId]);
    await server.pool.query('update checks set next_runtime = now() where canary_id = $1', [canaryId]);
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 16 });
    return scheduler.runDue();
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    commander = await server.cookieFor('commander');
    viewer = await server.cookieFor('viewer');
    execCanary = await createCanary(admin, 'admin-probe', { exec: [{ name: 'probe', script: 'echo admin-script' }] });
    webCanary = await createCanary(admin, 'web', { http: [{ name: 'home', url: 'http://127.0.0.1:9/' }] });
    execCheckId = execCanary.checks.find((check) => check.type === 'exec')?.id ?? '';
    httpCheckId = webCanary.checks.find((check) => check.type === 'http')?.id ?? '';
    expect(execCheckId).not.toBe('');
    expect(httpCheckId).not.toBe('');
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  describe('writing exec checks', () => {
    const execSpec = { exec: [{ name: 'pwn', script: 'id; cat "$DATA_DIR/secret.key"' }] };

    it('refuses editors and commanders who create, change or delete exec checks through the canary routes', async () => {
      const before = await stored();
      for (const [label, cookie] of [['editor', editor], ['commander', commander]] as const) {
        expect((await server.call('POST', '/api/canary/canaries', cookie, { name: 'pwn', spec: execSpec })).status, label).toBe(403);
        expect((await server.call('POST', '/api/canary/canaries', cookie, { name: 'pwn', yaml: 'exec:\n  - name: pwn\n    script: id\n' })).status, label).toBe(403);
        expect((await server.call('POST', '/api/canary/canaries', cookie, { name: 'pwn', spec: { kind: 'Canary', spec: execSpec } })).status, label).toBe(403);
        expect((await server.call('PATCH', `/api/canary/canaries/${execCanary.id}`, cookie, { spec: execSpec })).status, label).toBe(403);
        expect((await server.call('PATCH', `/api/canary/canaries/${execCanary.id}`, cookie, { description: 'renamed' })).status, label).toBe(403);
        expect((await server.call('PATCH', `/api/canary/canaries/${webCanary.id}`, cookie, { spec: { ...execSpec, http: [{ name: 'home', url: 'http://127.0.0.1:9/' }] } })).status, label).toBe(403);
        expect((await server.call('DELETE', `/api/canary/canaries/${execCanary.id}`, cookie)).status, label).toBe(403);
      }
      expectExecRefused(await server.call('POST', '/api/canary/canaries', editor, { name: 'pwn', spec: execSpec }), 'editor create');
      expectExecRefused(await server.call('PATCH', `/api/canary/canaries/${execCanary.id}`, editor, { spec: execSpec }), 'editor patch');
      expectExecRefused(await server.call('DELETE', `/api/canary/canaries/${execCanary.id}`, editor), 'editor delete');
      expect((await server.pool.query(`select 1 from canaries where name = 'pwn'`)).rowCount).toBe(0);
      expect(await stored()).toEqual(before);
    });

    it('refuses editors who write exec checks through every data API write: insert, filtered PATCH, upsert, soft and hard delete', async () => {
      const before = await stored();
      const merge = { prefer: 'resolution=merge-duplicates' };
      const attempts: Array<[string, string, string, unknown, Record<string, string>?]> = [
        ['insert an exec canary', 'POST', '/api/db/canaries', { name: 'pwn', spec: execSpec }],
        ['insert a wrapped exec canary', 'POST', '/api/db/canaries', [{ name: 'pwn', spec: { kind: 'Canary', spec: execSpec } }]],
        ['insert an exec check', 'POST', '/api/db/checks', { canary_id: webCanary.id, type: 'exec', name: 'pwn', spec: { script: 'id' } }],
        ['turn an http check into exec', 'PATCH', `/api/db/checks?id=eq.${httpCheckId}`, { type: 'exec', spec: { script: 'id' } }],
        ['change the script of an exec check', 'PATCH', `/api/db/checks?id=eq.${execCheckId}`, { spec: { name: 'probe', script: 'id' } }],
        ['change an exec check by a broad filter', 'PATCH', `/api/db/checks?name=in.(probe,home)`, { spec: { script: 'id' } }],
        ['rename an exec check', 'PATCH', `/api/db/checks?id=eq.${execCheckId}`, { name: 'renamed' }],
        ['soft-delete an exec check', 'PATCH', `/api/db/checks?id=eq.${execCheckId}`, { deleted_at: new Date().toISOString() }],
        ['delete an exec check', 'DELETE', `/api/db/checks?id=eq.${execCheckId}`, undefined],
        ['upsert over an exec check', 'POST', '/api/db/checks', { id: execCheckId, canary_id: execCanary.id, type: 'http', name: 'probe', spec: { url: 'http://x' } }, merge],
        ['upsert an exec check over an http one', 'POST', '/api/db/checks', { id: httpCheckId, canary_id: webCanary.id, type: 'exec', name: 'home', spec: { script: 'id' } }, merge],
        ['add exec to a canary', 'PATCH', `/api/db/canaries?id=eq.${webCanary.id}`, { spec: execSpec }],
        ['replace the spec of an exec canary', 'PATCH', `/api/db/canaries?id=eq.${execCanary.id}`, { spec: { http: [{ name: 'x', url: 'http://x' }] } }],
        ['rename an exec canary', 'PATCH', `/api/db/canaries?id=eq.${execCanary.id}`, { name: 'renamed' }],
        ['upsert over an exec canary', 'POST', '/api/db/canaries', { id: execCanary.id, name: 'admin-probe', spec: {} }, merge],
        ['delete an exec canary', 'DELETE', `/api/db/canaries?id=eq.${execCanary.id}`, undefined],
      ];
      for (const [label, method, url, body, headers] of attempts) {
        expectExecRefused(await server.call(method, url, editor, body, headers), `editor: ${label}`);
        expect((await server.call(method, url, commander, body, headers)).status, `commander: ${label}`).toBe(403);
      }
      expect(await stored()).toEqual(before);
    });

    it("refuses an administrator's API token made for the editor role on the writes whose body names no exec check", async () => {
      const minted = await createApiToken(server, admin, 'editor', 'capped for exec');
      expect(minted.status, minted.text).toBe(201);
      const before = await stored();
      const attempts: Array<[string, string, string, unknown]> = [
        ['rename an exec canary', 'PATCH', `/api/db/canaries?id=eq.${execCanary.id}`, { name: 'renamed' }],
        ['replace the spec of an exec canary', 'PATCH', `/api/db/canaries?id=eq.${execCanary.id}`, { spec: { http: [{ name: 'x', url: 'http://x' }] } }],
        ['rename an exec check', 'PATCH', `/api/db/checks?id=eq.${execCheckId}`, { name: 'renamed' }],
        ['delete an exec check', 'DELETE', `/api/db/checks?id=eq.${execCheckId}`, undefined],
        ['delete an exec canary', 'DELETE', `/api/db/canaries?id=eq.${execCanary.id}`, undefined],
      ];
      for (const [label, method, url, body] of attempts) expectExecRefused(await callWithToken(server, minted.token, method, url, body), `capped token: ${label}`);
      expect(await stored()).toEqual(before);
    });

    it('still lets editors write canaries and checks that run no exec check, and admins write exec checks', async () => {
      const patched = await server.call('PATCH', `/api/db/canaries?id=eq.${webCanary.id}`, editor, { description: 'edited by an editor' });
      expect(patched.status, patched.text).toBe(204);
      const created = await server.call('POST', '/api/canary/canaries', editor, { name: 'editor-http', spec: { tcp: [{ name: 't', endpoint: '127.0.0.1:9' }] } });
      expect(created.status, created.text).toBe(201);
      const adminPatch = await server.call('PATCH', `/api/db/checks?id=eq.${execCheckId}`, admin, { description: 'edited by an admin' });
      expect(adminPatch.status, adminPatch.text).toBe(204);
    });
  });

  describe('running exec checks', () => {
    let runs: Map<string, RecordedRun>;
    let keyFile: string;

    beforeAll(async () => {
      // The key file exactly as the server creates it in DATA_DIR when OPSDECK_SECRET_KEY is not set.
      const dataDir = server.running.context.config.dataDir;
      loadConfig({ LOG_LEVEL: 'silent' }, { dataDir });
      keyFile = path.join(dataDir, 'secret.key');
      process.env.OPSDECK_EXEC_TEST_SERVER_ONLY = 'visible-to-the-server-only';
      const canary = await createCanary(admin, 'sandbox-probe', {
        exec: [
          { name: 'uid', script: 'id -u' },
          { name: 'key', script: 'cat "$KEY_FILE"', env: { KEY_FILE: keyFile } },
          { name: 'server-environment', script: 'cat /proc/$PPID/environ' },
          { name: 'environment', script: 'env', env: { GREETING: 'hello' } },
        ],
      });
      const recorded = await runCanary(canary.id);
      delete process.env.OPSDECK_EXEC_TEST_SERVER_ONLY;
      runs = new Map(recorded.map((run) => [canary.checks.find((check) => check.id === run.checkId)?.name ?? '', run]));
      expect([...runs.keys()].sort()).toEqual(['environment', 'key', 'server-environment', 'uid']);
    });

    it.runIf(IS_ROOT)('runs the script as an unprivileged user, not root', () => {
      const uid = runs.get('uid')?.result;
      expect(uid?.pass, JSON.stringify(uid)).toBe(true);
      expect(uid?.message).toMatch(/^\d+$/);
      expect(uid?.message).not.toBe('0');
    });

    it.runIf(IS_ROOT)('cannot read the secret key in DATA_DIR', () => {
      const key = runs.get('key')?.result;
      const contents = readFileSync(keyFile, 'utf8').trim();
      expect(key?.pass).toBe(false);
      expect(key?.error).toMatch(/Permission denied/);
      expect(JSON.stringify(key)).not.toContain(contents);
    });

    it.runIf(IS_ROOT)("cannot read the server's environment, and gets a clean one of its own", () => {
      expect(runs.get('server-environment')?.result.pass).toBe(false);
      const env = runs.get('environment')?.result;
      expect(env?.pass).toBe(true);
      const names = (env?.message ?? '').split('\n').map((line) => line.slice(0, line.indexOf('=')));
      // bash adds PWD, SHLVL and _ itself.
      expect(names.sort()).toEqual(['GREETING', 'HOME', 'LANG', 'PATH', 'PWD', 'SHLVL', 'TMPDIR', '_']);
      expect(env?.message).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
      expect(env?.message).not.toContain(SERVER_ONLY_VARIABLE);
    });

    it.runIf(IS_ROOT)("clones a checkout as the sandbox user and runs the script in it, as canary-checker's exec_checkout_pass does", async () => {
      const repository = sandboxRepository({ 'go.mod': 'module github.com/example/duty\n\ngo 1.22\n' });
      try {
        const canary = await createCanary(admin, 'exec-checkout', {
          exec: [{ name: 'checkout', script: 'cat go.mod | head -n 1', checkout: { url: repository.url }, test: { expr: 'results.stdout == "module github.com/example/duty"' } }],
        });
        const [checked] = await runCanary(canary.id);
        expect(checked?.result.pass, JSON.stringify(checked?.result)).toBe(true);
      } finally {
        repository.dispose();
      }
    });

    it.runIf(IS_ROOT)("hands connections' credentials to the script as its CLI reads them, scrubbed from what the run stores, as canary-checker's exec_connection_aws does", async () => {
      const key = server.running.context.config.secretKey;
      const secret = 'aws-secret-for-exec-check-51f0';
      const kubeconfig = 'apiVersion: v1\nkind: Config\n# token-exec-check-9a2b\n';
      await createStoredConnection(server.pool, key, { name: 'check-aws', type: 'aws', username: 'AKIACHECKEXAMPLE', password: secret, properties: { region: 'eu-west-1' } }, null);
      await createStoredConnection(server.pool, key, { name: 'check-kube', type: 'kubernetes', certificate: kubeconfig }, null);
      await createStoredConnection(server.pool, key, { name: 'check-web', type: 'http', url: 'http://127.0.0.1:9' }, null);
      const canary = await createCanary(admin, 'exec-connections', {
        exec: [
          {
            name: 'cli',
            script: '[ "$AWS_SECRET_ACCESS_KEY" = "' + secret + '" ] && echo key-ok; echo "$AWS_REGION $AWS_SECRET_ACCESS_KEY"; stat -c %a "$KUBECONFIG"; cat "$KUBECONFIG"',
            connections: { aws: { connection: 'connection://default/check-aws' }, kubernetes: { connection: 'check-kube' } },
            test: { expr: 'results.stdout.startsWith("key-ok") && results.stdout.contains("eu-west-1 ")' },
          },
          { name: 'wrong-kind', script: 'echo never', connections: { aws: { connection: 'check-web' } } },
        ],
      });
      const runs = await runCanary(canary.id);
      const byName = new Map(runs.map((run) => [canary.checks.find((check) => check.id === run.checkId)?.name ?? '', run.result]));
      const cli = byName.get('cli');
      expect(cli?.pass, JSON.stringify(cli)).toBe(true);
      expect(cli?.message).toContain('600');
      expect(JSON.stringify(cli)).not.toContain(secret);
      expect(JSON.stringify(cli)).not.toContain('token-exec-check');
      expect(byName.get('wrong-kind')?.error).toBe('The script was not started: connections.aws names default/check-web, a http connection');
      const inline = await server.call('POST', '/api/canary/canaries', admin, { name: 'inline-aws', spec: { exec: [{ name: 'x', script: 'true', connections: { aws: { accessKey: 'AKIA' } } }] } });
      expect(inline.status).toBe(400);
      expect(inline.json).toMatchObject({ code: 'OD_CHECK_FIELD_NOT_RUN' });
      expect(String(inline.json.details)).toContain('exec[0].connections.aws.accessKey');
    });

    it.runIf(!IS_ROOT)('refuses to run any script when the server cannot drop to another user, saying why', () => {
      for (const run of runs.values()) {
        expect(run.result.pass).toBe(false);
        expect(run.result.error).toMatch(/Exec checks need the server to run as root/);
      }
    });
  });

  describe('a sealed secret echoed by a script', () => {
    let checkId: string;

    beforeAll(async () => {
      const canary = await createCanary(admin, 'echoes-a-secret', {
        exec: [
          {
            name: 'echo',
            script: 'echo "token=$API_TOKEN"; echo "$API_TOKEN" >&2; exit 1',
            env: { API_TOKEN: SEALED_SECRET },
          },
        ],
      });
      checkId = canary.checks[0]?.id ?? '';
      await runCanary(canary.id);
    });

    it('is stored sealed in the spec', async () => {
      const spec = JSON.stringify((await server.pool.query('select spec from checks where id = $1', [checkId])).rows[0]);
      expect(spec).toContain('$encrypted');
      expect(spec).not.toContain(SEALED_SECRET);
    });

    it.runIf(IS_ROOT)('is redacted in what is stored and in everything a viewer reads', async () => {
      const row = (await server.pool.query<{ message: string; error: string; details: unknown }>('select message, error, details from check_statuses where check_id = $1', [checkId])).rows[0];
      expect(row?.message).toBe('token=[REDACTED]');
      expect(row?.error).toBe('exit code 1: [REDACTED]');
      expect(JSON.stringify(row?.details)).toContain('[REDACTED]');
      const reads = [
        await server.call('GET', `/api/db/check_statuses?check_id=eq.${checkId}`, viewer),
        await server.call('GET', `/api/db/checks?id=eq.${checkId}`, viewer),
        await server.call('GET', `/api/canary/api/details?check=${checkId}`, viewer),
        await server.call('GET', `/api/canary/api/summary?check=${checkId}`, viewer),
        await server.call('GET', `/api/db/job_history?resource_type=eq.canary&order=time_start.desc&limit=20`, viewer),
      ];
      for (const reply of reads) {
        expect(reply.status, reply.text).toBe(200);
        expect(reply.text).not.toContain(SEALED_SECRET);
      }
      expect(reads[0]?.text).toContain('[REDACTED]');
      const stored = await server.pool.query<{ text: string }>(
        `select concat_ws(' ', (select string_agg(properties::text, ' ') from event_queue), (select string_agg(details::text, ' ') from job_history)) as text`,
      );
      expect(stored.rows[0]?.text ?? '').not.toContain(SEALED_SECRET);
    });
  });
});
