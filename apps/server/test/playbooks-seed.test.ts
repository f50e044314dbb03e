import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYBOOK_ACTION_TYPES, PLAYBOOK_OTHER_CATEGORY, PLAYBOOK_RUN_STATUSES, type PlaybookActionType } from '@opsdeck/shared';
import { parsePlaybookSpec } from '../src/modules/playbooks/spec';
import { seedPlaybooksDemo } from '../src/seed/playbooks';
import { startTestServer, type TestServer } from './harness';

interface RunRow {
  id: string;
  name: string;
  status: string;
  error: string | null;
  spec: unknown;
  actions: Array<{ name: string; status: string; position: number; scheduled_time: string; error: string | null; result: Record<string, unknown> | null }>;
}

async function demoRuns(server: TestServer): Promise<RunRow[]> {
  const runs = await server.pool.query<RunRow>(
    `select r.id, p.name, r.status, r.error, r.spec,
            coalesce((select json_agg(json_build_object('name', a.name, 'status', a.status, 'position', a.position,
                                                        'scheduled_time', a.scheduled_time, 'error', a.error, 'result', a.result)
                                      order by a.position)
                        from playbook_run_actions a where a.playbook_run_id = r.id), '[]') as actions
       from playbook_runs r join playbooks p on p.id = r.playbook_id
      order by r.created_at`,
  );
  return runs.rows;
}

describe('playbook demo data', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('offers playbooks of every action type, grouped in categories with one left for Other', async () => {
    const playbooks = await server.pool.query<{ name: string; category: string | null; spec: unknown }>(
      'select name, category, spec from playbooks where deleted_at is null order by name',
    );
    const types = new Set<PlaybookActionType>();
    for (const playbook of playbooks.rows) {
      for (const action of parsePlaybookSpec(playbook.spec).actions) {
        for (const type of PLAYBOOK_ACTION_TYPES) if (action[type] !== undefined) types.add(type);
      }
    }
    expect([...types].sort()).toEqual([...PLAYBOOK_ACTION_TYPES].sort());
    const categories = new Set(playbooks.rows.map((playbook) => playbook.category ?? PLAYBOOK_OTHER_CATEGORY));
    expect([...categories].sort()).toEqual(['Database', 'Diagnostics', 'Kubernetes', PLAYBOOK_OTHER_CATEGORY]);
  });

  it('declares parameters of several types, one playbook with an approval and one action with a delay', async () => {
    const specs = (await server.pool.query<{ spec: unknown }>('select spec from playbooks where deleted_at is null')).rows.map((row) => parsePlaybookSpec(row.spec));
    const parameterTypes = new Set(specs.flatMap((spec) => (spec.parameters ?? []).map((parameter) => parameter.type)));
    for (const type of ['text', 'list', 'checkbox', 'code', 'team', 'people'] as const) expect(parameterTypes).toContain(type);
    const formats = specs.flatMap((spec) => (spec.parameters ?? []).map((parameter) => parameter.properties?.format));
    expect(formats).toContain('dns1123');
    expect(formats).toContain('number');
    const approval = specs.find((spec) => spec.approval !== undefined)?.approval;
    expect(approval?.approvers).toEqual({ people: ['commander@opsdeck.local'], teams: ['Platform'] });
    expect(specs.some((spec) => spec.actions.some((action) => action.delay === '1h'))).toBe(true);
  });

  it('never templates a script or a query: values reach them through env, args and PARAM_ variables', async () => {
    const specs = (await server.pool.query<{ spec: unknown }>('select spec from playbooks where deleted_at is null')).rows.map((row) => parsePlaybookSpec(row.spec));
    const code = specs.flatMap((spec) => spec.actions.flatMap((action) => [action.exec?.script, action.sql?.query])).filter((text) => text !== undefined);
    expect(code.length).toBeGreaterThanOrEqual(4);
    for (const text of code) expect(text).not.toMatch(/\{\{|\{%/);
    expect(code.some((text) => text.includes('$PARAM_NAMESPACE'))).toBe(true);
  });

  it('has runs in every status a stored row can rest in, and the one real request still pending', async () => {
    const runs = await demoRuns(server);
    const statuses = new Set(runs.map((run) => run.status));
    // A run left 'running' would be taken for a crashed one and failed by the reaper, so the demo has none.
    expect([...statuses].sort()).toEqual(PLAYBOOK_RUN_STATUSES.filter((status) => status !== 'running').sort());
    const pending = runs.filter((run) => run.status === 'pending');
    expect(pending.map((run) => run.name)).toEqual(['page-on-call']);
    expect(pending[0]?.actions).toEqual([]);
    for (const run of runs) expect(() => parsePlaybookSpec(run.spec)).not.toThrow();
  });

  it('shows actions completed with output, failed with an error and stderr, skipped, cancelled and sleeping for an hour', async () => {
    const actions = (await demoRuns(server)).flatMap((run) => run.actions);
    expect(new Set(actions.map((action) => action.status))).toEqual(new Set(['completed', 'failed', 'skipped', 'cancelled', 'sleeping']));
    expect(actions.some((action) => action.status === 'completed' && String(action.result?.stdout ?? '').includes('CrashLoopBackOff'))).toBe(true);
    const failed = actions.find((action) => action.status === 'failed' && action.result?.exitCode !== undefined);
    expect(failed?.error).toBe('Seeded demo failure: exit code 1');
    expect(failed?.result?.stderr).toMatch(/not found/);
    expect(actions.find((action) => action.name === 'sessions' && action.status === 'failed')?.error).toMatch(/^Seeded demo failure: .*ECONNREFUSED/);
    const sleeping = actions.find((action) => action.status === 'sleeping');
    // Measured from when the demo was seeded (the template database is seeded once per test run, which may be long
    // before this test runs on a busy machine), not from now.
    const seeded = await server.pool.query<{ at: string | Date }>(`select min(created_at) as at from playbooks`);
    const wakesInMs = new Date(sleeping?.scheduled_time ?? 0).getTime() - new Date(seeded.rows[0]?.at ?? 0).getTime();
    expect(wakesInMs).toBeGreaterThan(30 * 60_000);
    expect(wakesInMs).toBeLessThanOrEqual(60 * 60_000);
  });

  it('keeps a failed run with only an error, which the run detail shows as Initialization', async () => {
    const runs = await demoRuns(server);
    const initialization = runs.filter((run) => run.status === 'failed' && run.error !== null && run.actions.length === 0);
    expect(initialization.map((run) => run.error)).toEqual(['The catalog item this run targets no longer exists']);
    const waiting = runs.find((run) => run.status === 'waiting');
    expect(parsePlaybookSpec(waiting?.spec).approval).toBeDefined();
  });

  it('seeds nothing twice', async () => {
    const before = await demoRuns(server);
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      const seeded = await seedPlaybooksDemo(client, { peopleByRole: {}, serverUrl: 'http://127.0.0.1:9', secretKey: Buffer.alloc(32, 7) });
      await client.query('commit');
      expect(seeded).toBe(false);
    } finally {
      client.release();
    }
    expect(await demoRuns(server)).toHaveLength(before.length);
  });
});

describe('playbook demo data with the workers running', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs the pending request for real, failing on the unconfigured webhook, and leaves the waiting and scheduled runs alone', async () => {
    const deadline = Date.now() + 20_000;
    let runs = await demoRuns(server);
    while (runs.some((run) => run.status === 'pending' || run.status === 'running') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      runs = await demoRuns(server);
    }
    const paged = runs.filter((run) => run.name === 'page-on-call').at(-1);
    expect(paged?.status).toBe('failed');
    expect(paged?.actions.map((action) => [action.name, action.status])).toEqual([['page', 'failed']]);
    expect(paged?.actions[0]?.error).toMatch(/ECONNREFUSED|connect/i);
    expect(String(paged?.actions[0]?.result?.body)).toContain('the nightly backup failed again');
    expect(runs.filter((run) => run.status === 'waiting')).toHaveLength(1);
    expect(runs.filter((run) => run.status === 'scheduled')).toHaveLength(1);
  });
});
