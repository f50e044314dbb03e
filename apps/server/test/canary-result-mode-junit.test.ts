import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/shared/session-token';
import { newAgentToken } from '../src/modules/agents/agent-token';
import { syncCanaryChecks } from '../src/modules/health/canary-sync';
import { startTestServer, waitFor, type TestServer } from './harness';
import { startSite, type Target } from './fixtures/local-targets';

interface CheckRow {
  id: string;
  type: string;
  name: string;
  description: string | null;
  status: string | null;
  agent_id: string | null;
}

interface StatusRow {
  status: boolean;
  message: string;
  error: string | null;
  details: { name: string; passed: number; failed: number; tests: Array<{ name: string; classname: string; status: string; message: string; error?: string }> };
  created_at: Date;
}

const NAMESPACE = 'junit-mode';
const PASSING = 'http pass response 200 status code';
const FLAKY = 'http pass response 201 status code';

/**
 * canary-checker's `resultMode: junit` (issue #32; its fixture fixtures/minimal/http_pass_results_mode_pass.yaml, with
 * the addresses of two listeners of this test): the canary's checks run in one run and record one combined result.
 * The workers run, so the scheduler picks the report up as it picks up any due check.
 */
describe('a canary with resultMode junit', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let ok: Target;
  let flaky: Target;
  let flakyStatus = 500;

  const apply = (content: string, cookie = admin) => server.call('POST', '/api/apply', cookie, { files: [{ path: 'junit.yaml', content }] });

  function canary(name: string, resultMode: string | null): string {
    return `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: ${NAMESPACE}
spec:
${resultMode === null ? '' : `  resultMode: "${resultMode}"\n`}  schedule: "@every 5m"
  http:
    - url: ${ok.url}/status/200
      name: ${PASSING}
      thresholdMillis: 30000
      responseCodes: [201, 301, 200]
      description: "HTTP dummy test 2"
    - url: ${flaky.url}/status/201
      name: ${FLAKY}
      thresholdMillis: 30000
      responseCodes: [200]
      description: "second http check here"
`;
  }

  async function canaryId(name: string): Promise<string> {
    const row = await server.pool.query<{ id: string }>('select id from canaries where namespace = $1 and name = $2 and deleted_at is null', [NAMESPACE, name]);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error(`no canary ${name}`);
    return id;
  }

  async function liveChecks(id: string): Promise<CheckRow[]> {
    const rows = await server.pool.query<CheckRow>(
      'select id, type, name, description, status, agent_id from checks where canary_id = $1 and deleted_at is null order by type, name',
      [id],
    );
    return rows.rows;
  }

  /** The first status of the check recorded after `after`, once the scheduler has recorded one. */
  function statusAfter(checkId: string, after: Date): Promise<StatusRow> {
    return waitFor(
      `a run of check ${checkId}`,
      async () => {
        const rows = await server.pool.query<StatusRow>(
          'select status, message, error, details, created_at from check_statuses where check_id = $1 and created_at > $2 order by time desc limit 1',
          [checkId, after],
        );
        return rows.rows[0] ?? null;
      },
      30_000,
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    ok = await startSite((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    flaky = await startSite((_req, res) => {
      res.writeHead(flakyStatus, { 'content-type': 'text/plain' });
      res.end(flakyStatus === 200 ? 'ok' : 'down');
    });
  });
  afterAll(async () => {
    await ok.close();
    await flaky.close();
    await server.close();
  });

  it('records one combined result: unhealthy naming the failing check, then healthy once every check passes', async () => {
    flakyStatus = 500;
    const started = new Date(Date.now() - 1000);
    const reply = await apply(canary('http-pass', 'junit'));
    expect(reply.status, reply.text).toBe(200);
    const id = await canaryId('http-pass');
    const rows = await liveChecks(id);
    expect(rows.map((row) => [row.type, row.name, row.description])).toEqual([['junit', 'http-pass', 'Result Mode: JUnit Report']]);
    const report = rows[0]?.id ?? '';

    const failing = await statusAfter(report, started);
    expect(failing.status).toBe(false);
    expect(failing.message).toMatch(new RegExp(`^1 passed, 1 failed in \\d+ms; failed: ${FLAKY}: `));
    expect(failing.error).toContain(`${FLAKY}: `);
    expect(failing.error).not.toContain(PASSING);
    expect(failing.details).toMatchObject({ name: 'http-pass', passed: 1, failed: 1 });
    expect(failing.details.tests.map((test) => `${test.classname} ${test.name} ${test.status}`)).toEqual([`http ${PASSING} passed`, `http ${FLAKY} failed`]);
    expect((await liveChecks(id))[0]?.status).toBe('unhealthy');

    flakyStatus = 200;
    const rerun = await server.call('POST', `/api/canary/run/check/${report}`, admin);
    expect(rerun.status, rerun.text).toBe(202);
    const passing = await statusAfter(report, failing.created_at);
    expect(passing.status).toBe(true);
    expect(passing.error).toBeNull();
    expect(passing.message).toMatch(/^2 passed in \d+ms$/);
    expect(passing.details).toMatchObject({ passed: 2, failed: 0 });
    expect((await liveChecks(id))[0]?.status).toBe('healthy');
    // Still one row for the canary: the checks it ran were never rows of their own.
    expect(await liveChecks(id)).toHaveLength(1);
  });

  it('keeps the rows consistent when the canary is switched between junit and a result per check', async () => {
    expect((await apply(canary('switched', 'junit'))).status).toBe(200);
    const id = await canaryId('switched');
    const [report] = await liveChecks(id);
    expect(report?.type).toBe('junit');

    expect((await apply(canary('switched', null))).status).toBe(200);
    expect((await liveChecks(id)).map((row) => `${row.type}/${row.name}`)).toEqual([`http/${PASSING}`, `http/${FLAKY}`]);
    const gone = await server.pool.query<{ deleted_at: Date | null }>('select deleted_at from checks where id = $1', [report?.id]);
    expect(gone.rows[0]?.deleted_at).not.toBeNull();
    const perCheck = (await liveChecks(id)).map((row) => row.id);

    expect((await apply(canary('switched', 'junit'))).status).toBe(200);
    expect((await liveChecks(id)).map((row) => `${row.type}/${row.name}`)).toEqual(['junit/switched']);
    const removed = await server.pool.query<{ n: number }>('select count(*)::int as n from checks where id = any($1) and deleted_at is not null', [perCheck]);
    expect(removed.rows[0]?.n).toBe(2);
  });

  it('refuses a result mode canary-checker does not have with a coded 400 naming it, through apply and the canary routes', async () => {
    const applied = await apply(canary('unknown-mode', 'xml'));
    expect(applied.status, applied.text).toBe(400);
    expect(applied.json.code).toBe('OD_CANARY_SPEC');
    expect(String(applied.json.details)).toContain("resultMode: 'xml' is not a result mode");
    const routed = await server.call('POST', '/api/canary/canaries', admin, { name: 'unknown-mode', namespace: NAMESPACE, spec: { resultMode: 'xml', http: [{ name: 'a', url: `${ok.url}/` }] } });
    expect(routed.status, routed.text).toBe(400);
    expect(routed.json).toMatchObject({ code: 'OD_CANARY_SPEC', details: "resultMode: 'xml' is not a result mode: write junit (the checks reported as one combined result) or leave it out (a result per check)" });
    expect(await server.pool.query('select 1 from canaries where name = $1', ['unknown-mode']).then((result) => result.rowCount)).toBe(0);
  });

  it('refuses beside junit a field that needs a check row of its own, naming it, rather than dropping it', async () => {
    const routed = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'junit-related',
      namespace: NAMESPACE,
      spec: { resultMode: 'junit', http: [{ name: 'a', url: `${ok.url}/`, relationships: { configs: [{ name: { value: 'web' } }] } }] },
    });
    expect(routed.status, routed.text).toBe(400);
    expect(routed.json.code).toBe('OD_CHECK_FIELD_NOT_RUN');
    expect(String(routed.json.message)).toContain('http[0].relationships');
    expect(String(routed.json.details)).toContain('not run with resultMode: junit');
  });

  it('refuses editors who write a junit report row that runs an exec check through the data API', async () => {
    const created = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'junit-exec',
      namespace: NAMESPACE,
      spec: { resultMode: 'junit', schedule: '@every 1h', http: [{ name: 'a', url: `${ok.url}/` }], exec: [{ name: 'script', script: 'echo ok' }] },
    });
    expect(created.status, created.text).toBe(201);
    const [report] = await liveChecks(String(created.json.id));
    expect(report?.type).toBe('junit');
    const web = await server.call('POST', '/api/canary/canaries', admin, { name: 'junit-web', namespace: NAMESPACE, spec: { resultMode: 'junit', schedule: '@every 1h', http: [{ name: 'a', url: `${ok.url}/` }] } });
    expect(web.status, web.text).toBe(201);
    const [webReport] = await liveChecks(String(web.json.id));
    const execSpec = { resultMode: 'junit', exec: [{ name: 'pwn', script: 'id' }] };
    const attempts: Array<[string, string, string, unknown]> = [
      ['add an exec check to a junit report', 'PATCH', `/api/db/checks?id=eq.${webReport?.id ?? ''}`, { spec: execSpec }],
      ['insert a junit report running an exec check', 'POST', '/api/db/checks', { canary_id: web.json.id, type: 'junit', name: 'pwn', spec: execSpec }],
      // The body names no exec check: the database's guard sees the row's spec.
      ['rename a junit report that runs an exec check', 'PATCH', `/api/db/checks?id=eq.${report?.id ?? ''}`, { name: 'renamed' }],
    ];
    for (const [label, method, url, body] of attempts) {
      const reply = await server.call(method, url, editor, body);
      expect(reply.status, `${label}: ${reply.text}`).toBe(403);
      expect(reply.json.message, label).toBe('Exec checks need the execute permission');
    }
    expect((await liveChecks(String(web.json.id))).map((row) => row.name)).toEqual(['junit-web']);
    expect((await liveChecks(String(created.json.id))).map((row) => row.name)).toEqual(['junit-exec']);
  });

  it("files an agent's pushed junit report on the report row upstream keeps for the agent's canary", async () => {
    const token = newAgentToken();
    const agent = await server.pool.query<{ id: string }>('insert into agents (name, access_token_hash) values ($1, $2) returning id', [`junit-${randomUUID()}`, hashToken(token)]);
    const agentId = agent.rows[0]?.id ?? '';
    // Assigned to the agent from the start (an assignment made through the API would give this server's scheduler a
    // moment to run the report first): upstream keeps the report row for it, and its own scheduler leaves it to the agent.
    const created = await server.pool.query<{ id: string }>('insert into canaries (name, namespace, spec, agent_id) values ($1, $2, $3, $4) returning id', [
      'remote-pass',
      NAMESPACE,
      JSON.stringify({ resultMode: 'junit', http: [{ name: 'a', url: 'http://10.0.0.1/' }] }),
      agentId,
    ]);
    const id = created.rows[0]?.id ?? '';
    await syncCanaryChecks(server.pool, id, { reschedule: false });
    const [report] = await liveChecks(id);
    expect(report).toMatchObject({ type: 'junit', name: 'remote-pass', agent_id: agentId });

    // What the agent's outbox sends for a run of its copy, which its own reconciler turned into the same row.
    const details = { name: 'remote-pass', passed: 0, failed: 1, duration: 0.01, tests: [{ name: 'a', classname: 'http', duration: 0.01, status: 'failed', message: '', error: 'connect ECONNREFUSED' }] };
    const pushed = await server.call('POST', '/api/agent/push', '', {
      batchId: randomUUID(),
      rows: [
        {
          kind: 'check_status',
          payload: { canary: 'remote-pass', namespace: NAMESPACE, type: 'junit', name: 'remote-pass', time: new Date().toISOString(), status: false, duration: 10, message: '1 failed in 10ms; failed: a: connect ECONNREFUSED', error: 'failed: a: connect ECONNREFUSED', details },
        },
      ],
    }, { authorization: `Bearer ${token}` });
    expect(pushed.status, pushed.text).toBe(200);
    const rows = await liveChecks(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: report?.id, status: 'unhealthy' });
    const statuses = await server.pool.query<{ details: unknown }>('select details from check_statuses where check_id = $1', [report?.id]);
    expect(statuses.rows.map((row) => row.details)).toEqual([details]);
  });
});
