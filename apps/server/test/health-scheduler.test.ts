import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { CanaryReconciler } from '../src/modules/health/canary-sync';
import { startTestServer, type TestServer } from './harness';

interface CanaryResponse {
  id: string;
  schedule: string | null;
  checks: { id: string; type: string; name: string; status: string | null }[];
}

describe('canaries, the check scheduler and the health summary', () => {
  let server: TestServer;
  let admin: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const newScheduler = (): CheckScheduler =>
    new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 16 });

  async function api(method: string, url: string, cookie: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
  }

  async function createCanary(name: string, yaml: string): Promise<CanaryResponse> {
    const { status, json } = await api('POST', '/api/canary/canaries', admin, { name, yaml });
    expect(status, JSON.stringify(json)).toBe(201);
    return json as CanaryResponse;
  }

  beforeAll(async () => {
    // The api role starts no scheduler of its own, so each test drives schedulers explicitly.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it('turns a YAML canary spec into checks and rejects an invalid spec with its issues', async () => {
    const canary = await createCanary(
      'spec-to-checks',
      `schedule: "@every 30s"\nhttp:\n  - name: self\n    url: ${server.url}/healthz\n    responseCodes: [200]\nexec:\n  - name: script\n    script: echo ok\n`,
    );
    expect(canary.schedule).toBe('@every 30s');
    expect(canary.checks.map((check) => `${check.type}/${check.name}`).sort()).toEqual(['exec/script', 'http/self']);

    const invalid = await api('POST', '/api/canary/canaries', admin, { name: 'bad', yaml: 'schedule: "@every 0s"\ntcp:\n  - name: x\n    thresholdMillis: -1\nsmtp: []\n' });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: 'OD_CANARY_SPEC', message: 'The canary spec is not valid' });
    const details = (invalid.json as { details: string }).details;
    expect(details).toContain('schedule');
    expect(details).toContain('tcp[0].thresholdMillis');
    expect(details).toContain('smtp: check type is not supported');
  });

  it('records a run: status row, check state, rollups, job history and a transition event', async () => {
    const canary = await createCanary('recorded', `schedule: "@every 1m"\nexec:\n  - name: passes\n    script: echo fine\n  - name: fails\n    script: echo broken >&2; exit 1\n`);
    const ids = new Map(canary.checks.map((check) => [check.name, check.id]));
    const passStarted = Date.now();
    const runs = await newScheduler().runDue();
    const passSeconds = (Date.now() - passStarted) / 1000;
    const ours = runs.filter((run) => [...ids.values()].includes(run.checkId));
    expect(ours).toHaveLength(2);

    const statuses = await server.pool.query<{ check_id: string; status: boolean; duration: number; message: string; error: string | null }>(
      'select check_id, status, duration, message, error from check_statuses where check_id = any($1) order by status desc',
      [[...ids.values()]],
    );
    expect(statuses.rows).toEqual([
      { check_id: ids.get('passes'), status: true, duration: expect.any(Number), message: 'fine', error: null },
      { check_id: ids.get('fails'), status: false, duration: expect.any(Number), message: '', error: 'exit code 1: broken' },
    ]);

    const checks = await server.pool.query<{ name: string; status: string; seconds_to_next: number; last_transition_time: string; last_runtime: string; lease_owner: string | null }>(
      `select name, status, extract(epoch from next_runtime - last_runtime)::integer as seconds_to_next, last_transition_time, last_runtime, lease_owner
         from checks where canary_id = $1 order by name`,
      [canary.id],
    );
    expect(checks.rows.map(({ name, status, lease_owner }) => ({ name, status, lease_owner }))).toEqual([
      { name: 'fails', status: 'unhealthy', lease_owner: null },
      { name: 'passes', status: 'healthy', lease_owner: null },
    ]);
    // The next run is a minute after the run was recorded, and last_runtime is when it started: on a busy machine the
    // pass itself takes a second or two, which the gap includes.
    for (const row of checks.rows) {
      expect(row.seconds_to_next).toBeGreaterThanOrEqual(60);
      expect(row.seconds_to_next).toBeLessThanOrEqual(60 + Math.ceil(passSeconds) + 1);
    }
    for (const row of checks.rows) expect(row.last_transition_time).toBe(row.last_runtime);

    const rollups = await server.pool.query<{ hourly: number; daily: number; failed: number }>(
      `select (select sum(total) from check_statuses_1h where check_id = any($1))::integer as hourly,
              (select sum(total) from check_statuses_1d where check_id = any($1))::integer as daily,
              (select sum(failed) from check_statuses_1d where check_id = any($1))::integer as failed`,
      [[...ids.values()]],
    );
    expect(rollups.rows[0]).toEqual({ hourly: 2, daily: 2, failed: 1 });

    const jobs = await server.pool.query('select name, resource_type, status, success_count, error_count, details from job_history where resource_id = $1', [canary.id]);
    expect(jobs.rows).toEqual([
      {
        name: 'Canary',
        resource_type: 'canary',
        status: 'WARNING',
        success_count: 1,
        error_count: 1,
        details: { errors: ['fails: exit code 1: broken'], summary: { canary: 'recorded', checks: 2, passed: 1, failed: 1 } },
      },
    ]);

    const events = await server.pool.query<{ name: string; check: string }>(
      `select name, properties ->> 'check_id' as check from event_queue where properties ->> 'canary_id' = $1 order by name`,
      [canary.id],
    );
    expect(events.rows).toEqual([
      { name: 'check.failed', check: ids.get('fails') },
      { name: 'check.passed', check: ids.get('passes') },
    ]);
  });

  it('moves last_transition_time and emits an event only when the status flips', async () => {
    const canary = await createCanary('flips', `exec:\n  - name: flipper\n    script: exit 0\n`);
    const checkId = canary.checks[0]?.id ?? '';
    const state = async (): Promise<{ status: string; last_transition_time: string; last_runtime: string }> =>
      (await server.pool.query('select status, last_transition_time, last_runtime from checks where id = $1', [checkId])).rows[0] as {
        status: string;
        last_transition_time: string;
        last_runtime: string;
      };
    const due = (): Promise<unknown> => server.pool.query('update checks set next_runtime = now() where id = $1', [checkId]);
    const scheduler = newScheduler();
    await scheduler.runDue();
    const first = await state();
    await due();
    await scheduler.runDue();
    const second = await state();
    expect(second.status).toBe('healthy');
    expect(second.last_runtime).not.toBe(first.last_runtime);
    expect(second.last_transition_time).toBe(first.last_transition_time);

    const patched = await api('PATCH', `/api/canary/canaries/${canary.id}`, admin, { yaml: `exec:\n  - name: flipper\n    script: exit 1\n` });
    expect(patched.status).toBe(200);
    // Saving reschedules at once.
    const dueNow = await server.pool.query<{ due: boolean }>('select next_runtime <= now() as due from checks where id = $1', [checkId]);
    expect(dueNow.rows[0]?.due).toBe(true);
    await scheduler.runDue();
    const third = await state();
    expect(third.status).toBe('unhealthy');
    expect(third.last_transition_time).toBe(third.last_runtime);

    const events = await server.pool.query<{ name: string }>(`select name from event_queue where properties ->> 'check_id' = $1 order by created_at`, [checkId]);
    expect(events.rows.map((row) => row.name)).toEqual(['check.passed', 'check.failed']);
  });

  it('never runs one check twice at once when two schedulers claim the same due checks', async () => {
    const script = 'sleep 0.3; echo done';
    const yaml = `exec:\n${Array.from({ length: 6 }, (_, i) => `  - name: c${i}\n    script: ${script}\n`).join('')}`;
    const canary = await createCanary('contended', yaml);
    const ids = canary.checks.map((check) => check.id);
    const [a, b] = await Promise.all([newScheduler().runDue(), newScheduler().runDue()]);
    const ran = [...a, ...b].map((run) => run.checkId).filter((id) => ids.includes(id));
    expect(ran.sort()).toEqual([...ids].sort());
    const rows = await server.pool.query<{ n: number }>('select count(*)::integer as n from check_statuses where check_id = any($1)', [ids]);
    expect(rows.rows[0]?.n).toBe(6);
  });

  it('claims a check again once the lease of a crashed worker has expired, but not before', async () => {
    const canary = await createCanary('leased', `exec:\n  - name: leased\n    script: echo back\n`);
    const checkId = canary.checks[0]?.id ?? '';
    await server.pool.query(`update checks set lease_owner = 'crashed', lease_until = now() + interval '1 minute', next_runtime = now() where id = $1`, [checkId]);
    expect((await newScheduler().runDue()).map((run) => run.checkId)).not.toContain(checkId);
    await server.pool.query(`update checks set lease_until = now() - interval '1 second' where id = $1`, [checkId]);
    expect((await newScheduler().runDue()).map((run) => run.checkId)).toContain(checkId);
  });

  it('records nothing for a check cut short by a stop and leaves it due for the next scheduler', async () => {
    const canary = await createCanary('cut-short', `exec:\n  - name: slow\n    script: sleep 20\n`);
    const checkId = canary.checks[0]?.id ?? '';
    const scheduler = newScheduler();
    scheduler.start();
    await expect
      .poll(async () => (await server.pool.query<{ owner: string | null }>('select lease_owner as owner from checks where id = $1', [checkId])).rows[0]?.owner, {
        timeout: 10_000,
      })
      .toBe(scheduler.owner);
    await scheduler.stop();
    const statuses = await server.pool.query('select 1 from check_statuses where check_id = $1', [checkId]);
    expect(statuses.rowCount).toBe(0);
    const jobs = await server.pool.query(`select 1 from job_history where resource_id = $1`, [canary.id]);
    expect(jobs.rowCount).toBe(0);
    const state = await server.pool.query<{ owner: string | null; due: boolean }>(
      'select lease_owner as owner, next_runtime <= now() as due from checks where id = $1',
      [checkId],
    );
    expect(state.rows[0]).toEqual({ owner: null, due: true });
  });

  it('syncs checks from a canary edited outside this API, soft-deleting removed ones', async () => {
    const canary = await createCanary('edited-elsewhere', `exec:\n  - name: keep\n    script: echo 1\n  - name: drop\n    script: echo 2\n`);
    const reconciler = new CanaryReconciler(server.pool, () => undefined);
    await reconciler.pass();
    await server.pool.query(`update canaries set spec = $2 where id = $1`, [
      canary.id,
      JSON.stringify({ exec: [{ name: 'keep', script: 'echo 1' }], tcp: [{ name: 'added', endpoint: '127.0.0.1:1' }] }),
    ]);
    expect(await reconciler.pass()).toContain(canary.id);
    const checks = await server.pool.query<{ name: string; deleted: boolean }>(
      'select name, deleted_at is not null as deleted from checks where canary_id = $1 order by name',
      [canary.id],
    );
    expect(checks.rows).toEqual([
      { name: 'added', deleted: false },
      { name: 'drop', deleted: true },
      { name: 'keep', deleted: false },
    ]);
    expect(await reconciler.pass()).not.toContain(canary.id);
  });

  describe('summary, details and Run Now', () => {
    let canary: CanaryResponse;
    beforeAll(async () => {
      canary = await createCanary(
        'summary',
        `exec:\n  - name: api/ok\n    script: echo ok\n    labels: {tier: web}\n  - name: api/bad\n    script: exit 2\n    labels: {tier: db}\n`,
      );
      await newScheduler().runDue();
    });

    it('lets a viewer read the summary with uptime and latency per check, filtered, grouped and counted on the server', async () => {
      const viewer = await server.cookieFor('viewer');
      const { status, json } = await api('GET', `/api/canary/api/summary?timeRange=1d&canary_id=${canary.id}&groupBy=name&tabBy=tier`, viewer);
      expect(status).toBe(200);
      const body = json as {
        checks_summary: { name: string; canary_name: string; status: string; uptime: { passed: number; failed: number }; latency: { p95: number | null } }[];
        counts: unknown;
        groups: unknown;
        tabs: unknown;
        labels: unknown;
        timeRange: { source: string };
      };
      expect(body.timeRange.source).toBe('1h');
      expect(body.checks_summary.map(({ name, canary_name, status: s, uptime }) => ({ name, canary_name, status: s, uptime }))).toEqual([
        { name: 'api/bad', canary_name: 'summary', status: 'unhealthy', uptime: { passed: 0, failed: 1 } },
        { name: 'api/ok', canary_name: 'summary', status: 'healthy', uptime: { passed: 1, failed: 0 } },
      ]);
      expect(body.checks_summary[0]?.latency.p95).toEqual(expect.any(Number));
      expect(body.counts).toEqual({ total: 2, healthy: 1, unhealthy: 1, warning: 0, unknown: 0 });
      expect(body.groups).toEqual([{ key: 'api', count: 2, healthy: 1, unhealthy: 1, warning: 0, unknown: 0, health: 'mixed' }]);
      expect(body.tabs).toEqual([
        { key: 'All', count: 2 },
        { key: 'db', count: 1 },
        { key: 'web', count: 1 },
      ]);
      expect(body.labels).toEqual({ tier: ['db', 'web'] });

      const unhealthy = await api('GET', `/api/canary/api/summary?canary_id=${canary.id}&status=unhealthy`, viewer);
      expect((unhealthy.json as { checks_summary: { name: string }[] }).checks_summary.map((c) => c.name)).toEqual(['api/bad']);
      const labelled = await api('GET', `/api/canary/api/summary?canary_id=${canary.id}&labels=${encodeURIComponent('!tier=db')}`, viewer);
      expect((labelled.json as { checks_summary: { name: string }[] }).checks_summary.map((c) => c.name)).toEqual(['api/ok']);
      const short = await api('GET', `/api/canary/api/summary?canary_id=${canary.id}&timeRange=15m&query=bad`, viewer);
      expect((short.json as { checks_summary: { uptime: unknown }[] }).checks_summary.map((c) => c.uptime)).toEqual([{ passed: 0, failed: 1 }]);
    });

    it('refuses the summary without a session and rejects an unknown time range', async () => {
      expect((await api('GET', '/api/canary/api/summary', '')).status).toBe(401);
      expect((await api('GET', '/api/canary/api/summary?timeRange=soon', admin)).status).toBe(400);
    });

    it('gives the check detail with uptime, latency, a series and the spec as YAML', async () => {
      const checkId = canary.checks.find((check) => check.name === 'api/ok')?.id ?? '';
      const { status, json } = await api('GET', `/api/canary/api/details?check=${checkId}&start=1h`, await server.cookieFor('viewer'));
      expect(status).toBe(200);
      expect(json).toMatchObject({
        uptime: { passed: 1, failed: 0, percentage: 100 },
        latency: { p95: expect.any(Number) },
        series: { bucket: '1m', points: [{ passed: 1, failed: 0 }] },
        relationships: { configs: [], components: [] },
        check: { id: checkId, spec_yaml: expect.stringContaining('script: echo ok') },
      });
    });

    it('lets responders and commanders run a check now but not viewers', async () => {
      const checkId = canary.checks[0]?.id ?? '';
      const denied = await api('POST', `/api/canary/run/check/${checkId}`, await server.cookieFor('viewer'));
      expect(denied.status).toBe(403);
      for (const role of ['responder', 'commander', 'editor'] as const) {
        await server.pool.query(`update checks set next_runtime = now() + interval '1 hour' where id = $1`, [checkId]);
        const { status, json } = await api('POST', `/api/canary/run/check/${checkId}`, await server.cookieFor(role));
        expect(status, role).toBe(202);
        expect(json).toEqual({ message: 'You have successfully initiated the check run.', id: checkId });
        const due = await server.pool.query<{ due: boolean }>('select next_runtime <= now() as due from checks where id = $1', [checkId]);
        expect(due.rows[0]?.due, role).toBe(true);
      }
    });
  });
});

describe('the worker role', () => {
  let server: TestServer;
  const previousRole = process.env.OPSDECK_ROLE;
  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'all';
    server = await startTestServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it('runs a saved canary on its own within seconds and again on its schedule', async () => {
    const response = await fetch(`${server.url}/api/canary/canaries`, {
      method: 'POST',
      headers: { cookie: await server.cookieFor('admin'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'live', yaml: `schedule: "@every 1s"\nhttp:\n  - name: healthz\n    url: ${server.url}/healthz\n    responseContent: ok\n` }),
    });
    expect(response.status).toBe(201);
    const { checks } = (await response.json()) as CanaryResponse;
    const checkId = checks[0]?.id ?? '';
    const deadline = Date.now() + 10_000;
    let runs = 0;
    while (Date.now() < deadline && runs < 2) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      runs = (await server.pool.query<{ n: number }>('select count(*)::integer as n from check_statuses where check_id = $1 and status', [checkId])).rows[0]?.n ?? 0;
    }
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
