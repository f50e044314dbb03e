import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFINITION_OF_DONE_DEFAULT_SCRIPTS, DEFINITION_OF_DONE_SHORTCUTS } from '@opsdeck/shared';
import { evaluateDefinitionOfDone, validateDefinitionOfDoneScript } from '../src/modules/incidents/definition-of-done';
import { DefinitionOfDoneScheduler } from '../src/modules/incidents/definition-of-done-scheduler';
import { startIncidentFixture, waitFor, type IncidentFixture } from './fixtures/incidents/incident-fixture';

const NOW = new Date('2024-05-01T12:00:00Z');
const minutesAgo = (m: number): string => new Date(NOW.getTime() - m * 60_000).toISOString();

describe('definition-of-done scripts', () => {
  it('accepts the shortcut and every default script for its evidence type', () => {
    expect(validateDefinitionOfDoneScript(DEFINITION_OF_DONE_SHORTCUTS.topology?.[0]?.script, 'topology')).toEqual({ valid: true });
    for (const [type, script] of Object.entries(DEFINITION_OF_DONE_DEFAULT_SCRIPTS)) {
      expect(validateDefinitionOfDoneScript(script, type)).toEqual({ valid: true });
    }
  });

  it('treats an empty script as valid, since the type default then applies', () => {
    expect(validateDefinitionOfDoneScript('  ', 'check')).toEqual({ valid: true });
    expect(validateDefinitionOfDoneScript(null)).toEqual({ valid: true });
  });

  it('rejects a syntax error with a clear message and the location in the details', () => {
    const outcome = validateDefinitionOfDoneScript('status = healthy', 'check');
    expect(outcome.valid).toBe(false);
    if (outcome.valid) return;
    expect(outcome.message).toMatch(/^Invalid definition of done script: /);
    expect(outcome.message).toContain('Unexpected character');
    expect(outcome.details).toContain('status = healthy');
  });

  it('rejects variables the evidence type does not have', () => {
    const outcome = validateDefinitionOfDoneScript('health == healthy', 'check');
    expect(outcome).toMatchObject({ valid: false, message: expect.stringContaining('Unknown variable: health') });
  });

  it('rejects a script that does not return a bool', () => {
    expect(validateDefinitionOfDoneScript('name', 'check')).toMatchObject({
      valid: false,
      message: 'Invalid definition of done script: it must return a bool, not string',
    });
  });

  it('rejects a script on evidence without a state to evaluate', () => {
    expect(validateDefinitionOfDoneScript('true', 'log')).toMatchObject({ valid: false, message: expect.stringContaining('log evidence has no state') });
  });

  it('accepts a script valid for any automatic type when the type is not known', () => {
    expect(validateDefinitionOfDoneScript('health == healthy')).toEqual({ valid: true });
    expect(validateDefinitionOfDoneScript('nonsense > 1')).toMatchObject({ valid: false });
  });

  it('requires a check to be healthy for more than five minutes by default', () => {
    const check = { status: 'healthy', name: 'api', type: 'http', last_transition_time: minutesAgo(10), last_runtime: minutesAgo(0), labels: {} };
    expect(evaluateDefinitionOfDone('check', null, check, NOW)).toBe(true);
    expect(evaluateDefinitionOfDone('check', null, { ...check, last_transition_time: minutesAgo(2) }, NOW)).toBe(false);
    expect(evaluateDefinitionOfDone('check', null, { ...check, status: 'unhealthy' }, NOW)).toBe(false);
    expect(evaluateDefinitionOfDone('check', 'status == unhealthy && kind == "http"', { ...check, status: 'unhealthy' }, NOW)).toBe(true);
  });

  it('evaluates components, configs and analyses with their own variables', () => {
    expect(evaluateDefinitionOfDone('topology', 'status == healthy', { status: 'healthy', name: 'checkout' }, NOW)).toBe(true);
    expect(evaluateDefinitionOfDone('topology', null, { status: 'warning', name: 'checkout' }, NOW)).toBe(false);
    expect(evaluateDefinitionOfDone('config', null, { health: 'healthy', type: 'Kubernetes::Pod' }, NOW)).toBe(true);
    expect(evaluateDefinitionOfDone('config', 'kind == "Kubernetes::Pod" && labels["app"] == "web"', { health: null, type: 'Kubernetes::Pod', labels: { app: 'web' } }, NOW)).toBe(true);
    expect(evaluateDefinitionOfDone('config_analysis', null, { status: 'resolved', severity: 'high' }, NOW)).toBe(true);
    expect(evaluateDefinitionOfDone('config_analysis', null, { status: 'open', severity: 'high' }, NOW)).toBe(false);
  });
});

describe('definition-of-done evaluation on the server', () => {
  let fx: IncidentFixture;
  let checkId: string;
  let hypothesisId: string;

  beforeAll(async () => {
    // The evaluator and the event-queue consumer run only in worker roles.
    fx = await startIncidentFixture({ workers: true });
    const { pool } = fx.server;
    // The canary's spec names the check, so the reconciler keeps it; an agent's canary is never run by this server.
    const agent = await pool.query<{ id: string }>(`insert into agents (name) values ('dod-agent') returning id`);
    const canary = await pool.query<{ id: string }>(
      `insert into canaries (name, agent_id, spec) values ('dod-canary', $1, $2) returning id`,
      [agent.rows[0]?.id, JSON.stringify({ http: [{ name: 'dod-check', url: 'https://example.invalid/' }] })],
    );
    const check = await pool.query<{ id: string }>(
      `insert into checks (canary_id, agent_id, type, name, status, last_transition_time)
       values ($1, $2, 'http', 'dod-check', 'healthy', now() - interval '10 minutes')
       on conflict (canary_id, type, name) where deleted_at is null
       do update set status = excluded.status, last_transition_time = excluded.last_transition_time
       returning id`,
      [canary.rows[0]?.id, agent.rows[0]?.id],
    );
    checkId = check.rows[0]?.id ?? '';
    const incident = await pool.query<{ id: string }>(`insert into incidents (title) values ('DoD incident') returning id`);
    const hypothesis = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, title) values ($1, 'root') returning id`, [incident.rows[0]?.id]);
    hypothesisId = hypothesis.rows[0]?.id ?? '';
  });

  afterAll(async () => {
    await fx.close();
  });

  async function evidence(values: { script?: string; definitionOfDone?: boolean; check?: string }): Promise<string> {
    const result = await fx.server.pool.query<{ id: string }>(
      `insert into evidences (hypothesis_id, type, description, check_id, definition_of_done, script) values ($1, 'check', 'check recovers', $2, $3, $4) returning id`,
      [hypothesisId, values.check ?? checkId, values.definitionOfDone ?? true, values.script ?? null],
    );
    return result.rows[0]?.id ?? '';
  }

  async function state(id: string): Promise<{ done: boolean; error: string | null }> {
    const result = await fx.server.pool.query<{ done: boolean; error: string | null }>(
      `select done, properties ->> 'definition_of_done_error' as error from evidences where id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error('evidence vanished');
    return row;
  }

  it('answers 200 for a valid script and 400 with the message for an invalid one', async () => {
    const ok = await fx.request('responder', '/api/incidents/definition-of-done/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ script: 'status == healthy', type: 'topology' }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ valid: true });
    const bad = await fx.request('commander', '/api/incidents/definition-of-done/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ script: 'status ==', type: 'check' }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { code: string; message: string };
    expect(body.code).toBe('OD_DOD_SCRIPT');
    expect(body.message).toMatch(/^Invalid definition of done script: /);
  });

  it('refuses script validation to a viewer, who cannot write evidence', async () => {
    const response = await fx.request('viewer', '/api/incidents/definition-of-done/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ script: 'true' }),
    });
    expect(response.status).toBe(403);
  });

  it('sets done from the default script and the script of each evidence, and leaves other evidence alone', async () => {
    const byDefault = await evidence({});
    const scripted = await evidence({ script: 'status == unhealthy' });
    const notInDefinition = await evidence({ definitionOfDone: false });
    const scheduler = new DefinitionOfDoneScheduler({ pool: fx.server.pool, bus: fx.server.running.context.bus });
    const summary = await scheduler.evaluateAll();
    expect(summary.evaluated).toBeGreaterThanOrEqual(2);
    expect(await state(byDefault)).toEqual({ done: true, error: null });
    expect(await state(scripted)).toEqual({ done: false, error: null });
    expect((await state(notInDefinition)).done).toBe(false);
  });

  it('re-evaluates evidence of a check when check.failed and check.passed reach the event queue with the change', async () => {
    const byDefault = await evidence({});
    const scheduler = new DefinitionOfDoneScheduler({ pool: fx.server.pool, bus: fx.server.running.context.bus });
    await scheduler.evaluateLinkedTo([checkId]);
    expect((await state(byDefault)).done).toBe(true);
    const transition = async (status: string, event: string): Promise<void> => {
      const client = await fx.server.pool.connect();
      try {
        await client.query('begin');
        await client.query(`update checks set status = $2, last_runtime = now() - interval '1 hour' where id = $1`, [checkId, status]);
        await client.query(`insert into event_queue (name, properties) values ($1, $2)`, [event, JSON.stringify({ check_id: checkId })]);
        await client.query('commit');
      } finally {
        client.release();
      }
      // What the check scheduler does after its commit: the bus only wakes the queue's consumer.
      fx.server.running.context.bus.publish({ name: event, payload: { check_id: checkId } });
    };
    await transition('unhealthy', 'check.failed');
    await waitFor(async () => ((await state(byDefault)).done ? undefined : true));
    await transition('healthy', 'check.passed');
    await waitFor(async () => ((await state(byDefault)).done ? true : undefined));
    // The consumer marks its event done after the evaluation it ran commits: wait for that too, never sample once.
    const pending = async (): Promise<number | undefined> => {
      const consumed = await fx.server.pool.query<{ pending: number }>(
        `select count(*)::integer as pending from event_queue where consumer = 'definition-of-done' and name like 'check.%' and properties ->> 'check_id' = $1`,
        [checkId],
      );
      return consumed.rows[0]?.pending === 0 ? 0 : undefined;
    };
    expect(await waitFor(pending)).toBe(0);
  });

  it('evaluates a newly written evidence when the server hears evidence.updated', async () => {
    const id = await evidence({ script: 'status == healthy' });
    expect((await state(id)).done).toBe(false);
    fx.server.running.context.bus.publish({ name: 'evidence.updated', payload: { id } });
    await waitFor(async () => ((await state(id)).done ? true : undefined));
  });

  it('records why an evidence could not be evaluated and keeps its done state', async () => {
    const canary = await fx.server.pool.query<{ id: string }>(`insert into canaries (name) values ('doomed') returning id`);
    const doomed = await fx.server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, status) values ($1, 'http', 'doomed', 'healthy') returning id`,
      [canary.rows[0]?.id],
    );
    const id = await evidence({ check: doomed.rows[0]?.id ?? '' });
    await fx.server.pool.query(`update checks set deleted_at = now() where id = $1`, [doomed.rows[0]?.id]);
    const scheduler = new DefinitionOfDoneScheduler({ pool: fx.server.pool, bus: fx.server.running.context.bus });
    await scheduler.evaluateAll();
    expect(await state(id)).toEqual({ done: false, error: 'The linked check no longer exists' });
  });
});
