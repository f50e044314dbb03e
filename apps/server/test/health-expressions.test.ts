import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler, type RecordedRun } from '../src/modules/health/check-scheduler';
import { startTestServer, type TestServer } from './harness';
import { startHttpServer, type HttpTarget } from './fixtures/local-targets';

interface CanaryResponse {
  id: string;
  checks: { id: string; type: string; name: string }[];
}

interface StatusRow {
  name: string;
  status: boolean;
  message: string;
  error: string | null;
}

/**
 * canary-checker's outcomes for checks that need no network beyond this host, written from the published shapes of
 * its fixtures (exec_pass, exec_fail, http_fail, transform): test, display and transform run as they run there.
 */
describe('check expressions at run time', () => {
  let server: TestServer;
  let admin: string;
  let web: HttpTarget;
  let shared: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const scheduler = (): CheckScheduler =>
    new CheckScheduler({
      pool: server.pool,
      secretKey: server.running.context.config.secretKey,
      bus: server.running.context.bus,
      concurrency: 16,
      exportMetrics: (samples) => server.running.context.metrics.checkMetrics.record(samples),
    });

  async function createCanary(name: string, yaml: string): Promise<CanaryResponse> {
    const response = await fetch(`${server.url}/api/canary/canaries`, {
      method: 'POST',
      headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      body: JSON.stringify({ name, yaml }),
    });
    const json = (await response.json()) as CanaryResponse;
    expect(response.status, JSON.stringify(json)).toBe(201);
    return json;
  }

  /** Runs what is due and returns this canary's runs; makes its checks due first so a schedule never has to pass. */
  async function runCanary(canary: CanaryResponse): Promise<RecordedRun[]> {
    await server.pool.query(`update checks set next_runtime = now() where canary_id = $1 and deleted_at is null and not (spec ? 'transformedFrom')`, [canary.id]);
    const ids = canary.checks.map((check) => check.id);
    const runs = await scheduler().runDue();
    return runs.filter((run) => ids.includes(run.checkId));
  }

  async function latestStatuses(canaryId: string): Promise<StatusRow[]> {
    const rows = await server.pool.query<StatusRow>(
      `select distinct on (k.id) k.name, s.status, s.message, s.error
         from checks k join check_statuses s on s.check_id = k.id
        where k.canary_id = $1 and k.deleted_at is null
        order by k.id, s.time desc`,
      [canaryId],
    );
    return rows.rows.sort((a, b) => a.name.localeCompare(b.name));
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    web = await startHttpServer();
    // Readable by the unprivileged user exec scripts run as.
    shared = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-expr-'));
    chmodSync(shared, 0o755);
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await web.close();
    await server.close();
    rmSync(shared, { recursive: true, force: true });
  });

  it('passes exec_pass and fails exec_fail by their test expressions, with the script output as the error', async () => {
    const canary = await createCanary(
      'exec-tests',
      [
        'exec:',
        '  - name: exec-pass',
        '    script: echo hello',
        '    test:',
        '      expr: results.stdout == "hello"',
        '  - name: exec-fail',
        '    script: echo "hi there"',
        '    test:',
        "      expr: 'results.stdout == \"hello\"'",
        '  - name: exit-code',
        '    script: echo done; exit 3',
        '    test:',
        '      expr: "true"',
      ].join('\n'),
    );
    await runCanary(canary);
    expect(await latestStatuses(canary.id)).toEqual([
      { name: 'exec-fail', status: false, message: 'hi there', error: 'hi there' },
      { name: 'exec-pass', status: true, message: 'hello', error: null },
      // A nonzero exit fails whatever the test says, as canary-checker's exec checker decides before the test runs.
      { name: 'exit-code', status: false, message: 'done', error: 'exit code 3: done' },
    ]);
  });

  it('replaces the message with display.expr and judges an http answer by code, headers and json', async () => {
    const canary = await createCanary(
      'http-display',
      [
        'http:',
        '  - name: should-be-500',
        `    url: ${web.url}/ok`,
        '    display:',
        '      expr: string(code) + " should be 500"',
        '    test:',
        '      expr: code == 500',
        '  - name: echo',
        `    url: ${web.url}/echo`,
        '    display:',
        "      template: 'method={{.json.method}} type={{.headers.Content-Type}}'",
        '    test:',
        "      expr: code == 200 && json.method == 'GET' && headers['Content-Type'] == 'application/json' && elapsed < Duration('10s')",
      ].join('\n'),
    );
    await runCanary(canary);
    expect(await latestStatuses(canary.id)).toEqual([
      { name: 'echo', status: true, message: 'method=GET type=application/json', error: null },
      { name: 'should-be-500', status: false, message: '200 should be 500', error: 'test failed' },
    ]);
  });

  it("exports a check's metrics on /metrics as metrics.yaml and metrics-multiple.yaml write them, and fails a check whose metric clashes", async () => {
    const canary = await createCanary(
      'http-metrics',
      [
        'http:',
        '  - name: http-minimal-check',
        `    url: ${web.url}/echo`,
        '    metrics:',
        '      - name: httpbin_count',
        '        type: counter',
        '        value: "1"',
        '        labels:',
        '          - name: check_name',
        '            valueExpr: check.name',
        '          - name: code',
        '            valueExpr: code',
        '      - name: echo_method_is_get',
        '        type: gauge',
        "        value: \"json.method == 'GET' ? 1 : 0\"",
        '        labels:',
        '          - name: from',
        '            value: USD',
        '      - name: echo_elapsed_ms',
        '        type: histogram',
        '        value: elapsed.getMilliseconds()',
      ].join('\n'),
    );
    await runCanary(canary);
    await runCanary(canary);
    expect(await latestStatuses(canary.id)).toEqual([{ name: 'http-minimal-check', status: true, message: expect.stringMatching(/^HTTP 200/), error: null }]);
    const text = await server.running.context.metrics.render();
    expect(text).toContain('httpbin_count{check_name="http-minimal-check",code="200"} 2');
    expect(text).toContain('echo_method_is_get{from="USD"} 1');
    expect(text).toContain('echo_elapsed_ms_count 2');
    const details = await server.pool.query<{ details: { metrics: unknown[] } }>(
      'select s.details from check_statuses s join checks k on k.id = s.check_id where k.canary_id = $1 order by s.time desc limit 1',
      [canary.id],
    );
    expect(details.rows[0]?.details.metrics).toContainEqual({ name: 'echo_method_is_get', type: 'gauge', value: 1, labels: { from: 'USD' } });

    const clash = await createCanary('http-metrics-clash', ['http:', '  - name: clash', `    url: ${web.url}/ok`, '    metrics:', '      - name: httpbin_count', '        type: gauge', '        value: "1"'].join('\n'));
    await runCanary(clash);
    expect(await latestStatuses(clash.id)).toEqual([
      { name: 'clash', status: false, message: expect.stringMatching(/^HTTP 200/), error: 'metric httpbin_count: already recorded as a counter by another check; a name has one type' },
    ]);
  });

  it('templates an http body over canary, check and env as http-templateBody.yaml does, sends a sealed env value only in it, and fails a body that does not render', async () => {
    const secret = 'tester-123-secret';
    const canary = await createCanary(
      'http-template-body',
      [
        'http:',
        '  - name: login',
        `    url: ${web.url}/echo`,
        '    method: POST',
        '    templateBody: true',
        '    env:',
        '      - name: password',
        `        value: ${secret}`,
        '      - name: region',
        '        value: eu-west-1',
        '    body: \'{"canary": "{{.canary.name}}", "check": "{{.check.name}}", "region": "{{.region}}", "password": "{{.password}}"}\'',
        '    display:',
        '      expr: content',
        '  - name: broken',
        `    url: ${web.url}/echo`,
        '    method: POST',
        '    templateBody: true',
        '    body: \'{"user": "admin{{test | "}\'',
      ].join('\n'),
    );
    const stored = await server.pool.query<{ spec: unknown }>("select spec from checks where canary_id = $1 and name = 'login'", [canary.id]);
    expect(JSON.stringify(stored.rows[0]?.spec)).not.toContain(secret);
    await runCanary(canary);
    const sent = web.requests.filter((request) => request.method === 'POST' && request.body.includes('http-template-body'));
    expect(sent.map((request) => JSON.parse(request.body) as unknown)).toEqual([
      { canary: 'http-template-body', check: 'login', region: 'eu-west-1', password: secret },
    ]);
    const statuses = await latestStatuses(canary.id);
    expect(statuses).toEqual([
      { name: 'broken', status: false, message: expect.stringMatching(/^failed to template request body: /), error: expect.stringMatching(/^failed to template request body: /) },
      { name: 'login', status: true, message: expect.stringContaining('eu-west-1'), error: null },
    ]);
    // The echo answers the body back; what is stored of the run never holds the sealed value.
    expect(JSON.stringify(statuses)).not.toContain(secret);
  });

  it('refuses $(name) substitution in an http address, which would carry an env value to wherever it points', async () => {
    const response = await fetch(`${server.url}/api/canary/canaries`, {
      method: 'POST',
      headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'address-from-env', yaml: ['http:', '  - name: x', '    url: $(.url)', '    env:', '      - name: url', `        value: ${web.url}/ok`].join('\n') }),
    });
    expect(response.status).toBe(400);
    const body = JSON.stringify(await response.json());
    expect(body).toContain('http[0].url');
    expect(body).toContain('substitution in the address is not run by this server');
    const dollarBody = await fetch(`${server.url}/api/canary/canaries`, {
      method: 'POST',
      headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'dollar-body', yaml: ['http:', '  - name: x', `    url: ${web.url}/echo`, '    templateBody: true', '    body: \'{"jwt": "$(TOKEN)"}\''].join('\n') }),
    });
    expect(dollarBody.status).toBe(400);
    expect(JSON.stringify(await dollarBody.json())).toContain('http[0].body');
  });

  it('refuses at save a metric named like one of the server\'s own, naming the field', async () => {
    const response = await fetch(`${server.url}/api/canary/canaries`, {
      method: 'POST',
      headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'own-metric', yaml: ['http:', '  - name: x', `    url: ${web.url}/ok`, '    metrics:', '      - name: opsdeck_check_runs_total', '        type: counter', '        value: "1"'].join('\n') }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('http[0].metrics[0].name');
  });

  it('fails a check whose expression does not evaluate, with the evaluation error, never as healthy', async () => {
    const canary = await createCanary(
      'invalid-expressions',
      [
        'exec:',
        '  - name: syntax',
        '    script: echo ok',
        '    test:',
        '      expr: results.stdout ==',
        '  - name: missing-field',
        '    script: echo ok',
        '    display:',
        '      expr: results.nothing',
        '  - name: not-a-bool',
        '    script: echo ok',
        '    test:',
        '      expr: results.stdout',
        '  - name: javascript',
        '    script: echo ok',
        '  - name: script-error',
        '    script: echo ok',
        '    display:',
        '      javascript: results.stdout.nope.deeper',
      ].join('\n'),
    );
    // Saving refuses test.jsonPath; a spec stored before that rule, or written to the table directly, still has it.
    await server.pool.query(`update checks set spec = spec || '{"test": {"jsonPath": "$.a"}}'::jsonb where canary_id = $1 and name = 'javascript'`, [canary.id]);
    await runCanary(canary);
    const statuses = await latestStatuses(canary.id);
    expect(statuses).toEqual([
      { name: 'javascript', status: false, message: 'test.jsonPath is not run by this server; write test.expr (CEL) instead', error: 'test.jsonPath is not run by this server; write test.expr (CEL) instead' },
      { name: 'missing-field', status: false, message: 'ok', error: 'display.expr: No such key: nothing' },
      { name: 'not-a-bool', status: false, message: 'ok', error: 'test expression did not return a boolean value. got ok' },
      { name: 'script-error', status: false, message: 'ok', error: "display.javascript: TypeError: cannot read property 'deeper' of undefined" },
      { name: 'syntax', status: false, message: 'ok', error: 'test.expr: Unexpected token: EOF' },
    ]);
    const checks = await server.pool.query<{ status: string }>(`select distinct status from checks where canary_id = $1`, [canary.id]);
    expect(checks.rows).toEqual([{ status: 'unhealthy' }]);
  });

  it('stops an expression that would hold the worker, fails its check with the reason, and runs the next check', async () => {
    const canary = await createCanary(
      'slow-expression',
      [
        'exec:',
        '  - name: quadratic',
        '    script: seq 1 4000',
        '    test:',
        `      expr: 'results.stdout.split("\\n").map(a, results.stdout.split("\\n").map(b, a + b)).size() > 0'`,
        '  - name: after',
        '    script: echo still running',
        '    test:',
        '      expr: results.stdout == "still running"',
      ].join('\n'),
    );
    const started = performance.now();
    await runCanary(canary);
    // 16 million concatenations would take far longer; the budget stops them at 250 ms.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(await latestStatuses(canary.id)).toEqual([
      { name: 'after', status: true, message: 'still running', error: null },
      { name: 'quadratic', status: false, message: expect.stringMatching(/^1\n2\n/), error: 'the expression ran longer than its budget of 250ms and was stopped' },
    ]);
  });

  it('fans a transform out into one check per result, updates them by name and removes those no longer returned', async () => {
    const jobs = path.join(shared, 'jobs.json');
    const writeJobs = (list: { job: string; up: number }[]): void => {
      writeFileSync(jobs, JSON.stringify(list));
      chmodSync(jobs, 0o644);
    };
    writeJobs([
      { job: 'api', up: 1 },
      { job: 'db', up: 0 },
      { job: 'web', up: 1 },
    ]);
    const canary = await createCanary(
      'fan-out',
      [
        'exec:',
        '  - name: jobs',
        `    script: cat ${jobs}`,
        '    transform:',
        '      expr: |',
        "        results.stdout.JSONArray().map(r, {'name': r.job, 'pass': r.up == 1, 'message': r.job + (r.up == 1 ? ' is up' : ' is down'), 'labels': {'job': r.job}}).toJSON()",
      ].join('\n'),
    );
    const [run] = await runCanary(canary);
    expect(run?.transformed).toEqual({ recorded: 3, removed: 0, refused: [] });
    expect(await latestStatuses(canary.id)).toEqual([
      { name: 'api', status: true, message: 'api is up', error: null },
      { name: 'db', status: false, message: 'db is down', error: 'db is down' },
      { name: 'jobs', status: true, message: expect.stringContaining('"job":"api"'), error: null },
      { name: 'web', status: true, message: 'web is up', error: null },
    ]);
    const children = await server.pool.query<{ id: string; name: string; type: string; labels: Record<string, string>; next_runtime: string | null }>(
      `select id, name, type, labels, next_runtime from checks where canary_id = $1 and deleted_at is null and spec ? 'transformedFrom' order by name`,
      [canary.id],
    );
    expect(children.rows.map(({ name, type, labels, next_runtime }) => ({ name, type, labels, next_runtime }))).toEqual([
      { name: 'api', type: 'exec', labels: { job: 'api' }, next_runtime: null },
      { name: 'db', type: 'exec', labels: { job: 'db' }, next_runtime: null },
      { name: 'web', type: 'exec', labels: { job: 'web' }, next_runtime: null },
    ]);
    const events = await server.pool.query<{ name: string; check_name: string }>(
      `select name, properties ->> 'name' as check_name from event_queue where properties ->> 'canary_id' = $1 order by check_name`,
      [canary.id],
    );
    expect(events.rows).toEqual([
      { name: 'check.passed', check_name: 'api' },
      { name: 'check.failed', check_name: 'db' },
      { name: 'check.passed', check_name: 'jobs' },
      { name: 'check.passed', check_name: 'web' },
    ]);

    // db comes back up, web is gone: db is updated in place (same row, one more status), web is removed.
    writeJobs([
      { job: 'api', up: 1 },
      { job: 'db', up: 1 },
    ]);
    const [second] = await runCanary(canary);
    expect(second?.transformed).toEqual({ recorded: 2, removed: 1, refused: [] });
    const after = await server.pool.query<{ id: string; name: string; status: string; runs: number }>(
      `select k.id, k.name, k.status, (select count(*) from check_statuses s where s.check_id = k.id)::integer as runs
         from checks k where k.canary_id = $1 and k.deleted_at is null and k.spec ? 'transformedFrom' order by k.name`,
      [canary.id],
    );
    expect(after.rows).toEqual([
      { id: children.rows[0]?.id, name: 'api', status: 'healthy', runs: 2 },
      { id: children.rows[1]?.id, name: 'db', status: 'healthy', runs: 2 },
    ]);
  });

  it('keeps the checks a transform made, with their ids and history, when the canary is edited, and removes them with their maker', async () => {
    const jobs = path.join(shared, 'kept-jobs.json');
    writeFileSync(jobs, JSON.stringify([{ job: 'queue' }, { job: 'cache' }]));
    chmodSync(jobs, 0o644);
    const maker = [
      'exec:',
      '  - name: kept-maker',
      `    script: cat ${jobs}`,
      '    transform:',
      "      expr: \"results.stdout.JSONArray().map(r, {'name': r.job, 'pass': true}).toJSON()\"",
    ];
    const canary = await createCanary('kept-fan-out', [...maker, '  - name: other', '    script: echo one'].join('\n'));
    await runCanary(canary);
    const made = async (): Promise<{ id: string; name: string; runs: number }[]> =>
      (
        await server.pool.query<{ id: string; name: string; runs: number }>(
          `select k.id, k.name, (select count(*) from check_statuses s where s.check_id = k.id)::integer as runs
             from checks k where k.canary_id = $1 and k.deleted_at is null and k.spec ? 'transformedFrom' order by k.name`,
          [canary.id],
        )
      ).rows;
    const before = await made();
    expect(before.map(({ name, runs }) => ({ name, runs }))).toEqual([
      { name: 'cache', runs: 1 },
      { name: 'queue', runs: 1 },
    ]);

    const edit = async (yaml: string): Promise<void> => {
      const response = await fetch(`${server.url}/api/canary/canaries/${canary.id}`, {
        method: 'PATCH',
        headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        body: JSON.stringify({ yaml }),
      });
      expect(response.status, await response.text()).toBe(200);
    };
    await edit([...maker, '  - name: other', '    script: echo two'].join('\n'));
    expect(await made()).toEqual(before);

    await edit(['exec:', '  - name: other', '    script: echo three'].join('\n'));
    expect(await made()).toEqual([]);
  });

  it('never runs a fanned-out check by itself, and leaves a name the canary defines to that check', async () => {
    const canary = await createCanary(
      'fan-out-collision',
      [
        'exec:',
        '  - name: maker',
        '    script: echo x',
        '    transform:',
        "      expr: \"[{'name': 'own', 'pass': false}, {'name': 'made', 'pass': true}].toJSON()\"",
        '  - name: own',
        '    script: echo mine',
      ].join('\n'),
    );
    const runs = await runCanary(canary);
    expect(runs.find((run) => run.transformed !== undefined)?.transformed).toEqual({ recorded: 1, removed: 0, refused: ['own'] });
    expect(await latestStatuses(canary.id)).toEqual([
      { name: 'made', status: true, message: '', error: null },
      { name: 'maker', status: true, message: 'x', error: null },
      { name: 'own', status: true, message: 'mine', error: null },
    ]);
    const job = await server.pool.query<{ details: { errors: string[] } }>(`select details from job_history where resource_id = $1`, [canary.id]);
    expect(job.rows[0]?.details.errors).toEqual(["maker: the transform's result 'own' was not recorded: the canary defines a check of that name"]);
    // Run Now on a fanned-out check runs the check that makes it, on the next pass; never the made check alone.
    const made = await server.pool.query<{ id: string }>(`select id from checks where canary_id = $1 and name = 'made' and deleted_at is null`, [canary.id]);
    const madeId = made.rows[0]?.id ?? '';
    const runNow = await fetch(`${server.url}/api/canary/run/check/${madeId}`, { method: 'POST', headers: { cookie: admin, 'x-requested-with': 'XMLHttpRequest' } });
    expect(runNow.status).toBe(202);
    const handedOver = await scheduler().runDue();
    expect(handedOver.some((run) => run.checkId === madeId)).toBe(false);
    const maker = canary.checks.find((check) => check.name === 'maker')?.id ?? '';
    const states = await server.pool.query<{ name: string; due: boolean }>(
      `select name, next_runtime <= now() as due from checks where id = any($1::uuid[]) order by name`,
      [[madeId, maker]],
    );
    expect(states.rows).toEqual([
      { name: 'made', due: null },
      { name: 'maker', due: true },
    ]);
    const next = await scheduler().runDue();
    expect(next.find((run) => run.checkId === maker)?.transformed).toMatchObject({ recorded: 1 });
    const statuses = await server.pool.query<{ runs: number }>(`select count(*)::integer as runs from check_statuses where check_id = $1`, [madeId]);
    expect(statuses.rows[0]?.runs).toBe(2);
  });

  describe('what an expression can reach', () => {
    it('cannot read the server environment or files: only its own result variables exist', async () => {
      process.env.OPSDECK_EXPRESSION_PROBE = 'server-secret-value';
      try {
        const canary = await createCanary(
          'reach-env',
          [
            'exec:',
            '  - name: env',
            '    script: echo ok',
            '    display:',
            '      expr: env.OPSDECK_EXPRESSION_PROBE',
            '  - name: process',
            '    script: echo ok',
            '    display:',
            '      expr: process.env.OPSDECK_EXPRESSION_PROBE',
            '  - name: file',
            '    script: echo ok',
            '    display:',
            "      expr: file('/etc/passwd')",
            '  - name: template',
            '    script: echo ok',
            '    display:',
            "      template: '{{ .env }}{{ .process }}'",
          ].join('\n'),
        );
        await runCanary(canary);
        const statuses = await latestStatuses(canary.id);
        expect(statuses.map((row) => [row.name, row.status])).toEqual([
          ['env', false],
          ['file', false],
          ['process', false],
          ['template', true],
        ]);
        for (const row of statuses) {
          expect(`${row.message} ${row.error ?? ''}`).not.toContain('server-secret-value');
          expect(`${row.message} ${row.error ?? ''}`).not.toContain('root:');
        }
        expect(statuses.find((row) => row.name === 'template')?.message).toBe('<no value><no value>');
      } finally {
        delete process.env.OPSDECK_EXPRESSION_PROBE;
      }
    });

    it("cannot read another check's secret, and cannot copy its own secret into what is stored", async () => {
      const canary = await createCanary(
        'reach-secrets',
        [
          'http:',
          '  - name: with-password',
          `    url: ${web.url}/echo`,
          '    authentication:',
          '      username: probe',
          '      password: expression-secret-1234',
          '    display:',
          '      expr: json.headers.authorization + " " + base64.Decode(json.headers.authorization.substring(6)).reverse()',
          'exec:',
          '  - name: neighbour',
          '    script: echo ok',
          '    display:',
          '      expr: canary.toJSON() + check.toJSON() + results.toJSON()',
        ].join('\n'),
      );
      await runCanary(canary);
      const statuses = await latestStatuses(canary.id);
      for (const row of statuses) {
        // Neither the secret nor a re-encoding of it: expressions are given the answer with the secret already redacted.
        expect(`${row.message} ${row.error ?? ''}`).not.toContain('expression-secret-1234');
        expect(`${row.message} ${row.error ?? ''}`).not.toContain('4321-terces-noisserpxe');
      }
      expect(statuses.find((row) => row.name === 'with-password')?.message).toContain('[REDACTED]');
      expect(statuses.find((row) => row.name === 'neighbour')).toMatchObject({ status: true, message: expect.stringContaining('"name":"reach-secrets"') });
    });
  });
});
