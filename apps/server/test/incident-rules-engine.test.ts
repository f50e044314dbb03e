import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, EventQueueConsumer } from '../src/platform/event-queue';
import { INCIDENT_RULES_CONSUMER, incidentRuleHandlers } from '../src/modules/incident-rules';
import { amAlert, amPayload } from './fixtures/alerts/alertmanager-payloads';
import { startTestServer, type TestServer } from './harness';

interface IncidentRow {
  id: string;
  title: string;
  description: string | null;
  type: string;
  severity: string;
  status: string;
  created_by: string | null;
}

describe('incident rules engine', () => {
  let server: TestServer;
  let responder: string;
  let admin: string;

  // A claimed event stays invisible to other consumers for the lease; the workers' consumers use a minute.
  const consumer = (leaseMs = 0) =>
    new EventQueueConsumer({
      pool: server.pool,
      bus: server.running.context.bus,
      consumer: INCIDENT_RULES_CONSUMER,
      handlers: incidentRuleHandlers({ pool: server.pool }),
      leaseMs,
      backoffMs: 0,
      claimBatch: 1,
    });

  beforeAll(async () => {
    server = await startTestServer();
    responder = await server.cookieFor('responder');
    admin = await server.cookieFor('admin');
    await consumer().subscribe();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    // Each test's rules alone: the demo rules and earlier tests' rules would also match.
    await server.pool.query(`update incident_rules set deleted_at = now() where deleted_at is null`);
  });

  async function rule(name: string, spec: Record<string, unknown>): Promise<string> {
    const reply = await server.call('POST', '/api/db/incident_rules', admin, { name, spec }, { prefer: 'return=representation' });
    expect(reply.status, reply.text).toBe(201);
    return (JSON.parse(reply.text) as Array<{ id: string }>)[0]?.id ?? '';
  }

  const alertSpec = (extra: Record<string, unknown> = {}) => ({
    sources: ['alert'],
    filter: "alert.severity == 'critical'",
    incident: { title: '{{ alert.name }} is firing', type: 'availability', severity: 'critical', description: '{{ alert.annotations.summary }}' },
    groupBy: ['alert.labels.alertname'],
    groupWindow: '30m',
    ...extra,
  });

  async function send(alerts: ReturnType<typeof amAlert>[]): Promise<void> {
    const reply = await server.call('POST', '/api/alerts/alertmanager', responder, amPayload(alerts));
    expect(reply.status, reply.text).toBe(202);
  }

  async function incidentsOf(ruleId: string): Promise<IncidentRow[]> {
    const result = await server.pool.query<IncidentRow>(
      `select i.id, i.title, i.description, i.type, i.severity, i.status, i.created_by from incidents i
        where i.id in (select incident_id from incident_rule_groups where rule_id = $1) order by i.created_at, i.id`,
      [ruleId],
    );
    return result.rows;
  }

  async function evidenceOf(incidentId: string): Promise<Array<{ type: string; name: string | null; description: string | null }>> {
    const result = await server.pool.query<{ type: string; name: string | null; description: string | null }>(
      `select e.type, coalesce(a.name, c.name, k.name) as name, e.description
         from evidences e join hypotheses h on h.id = e.hypothesis_id
         left join alerts a on a.id = e.alert_id left join checks c on c.id = e.check_id left join components k on k.id = e.component_id
        where h.incident_id = $1 order by e.created_at, e.id`,
      [incidentId],
    );
    return result.rows;
  }

  async function historyOf(incidentId: string): Promise<string[]> {
    const result = await server.pool.query<{ type: string }>(`select type from incident_histories where incident_id = $1 order by created_at, type`, [incidentId]);
    return result.rows.map((row) => row.type);
  }

  it('opens an incident from a matching alert, with the alert as evidence, responders and the changelog', async () => {
    const ruleId = await rule('critical alerts', alertSpec({ responders: { teams: ['Platform'], people: ['responder@opsdeck.local'] } }));
    await send([amAlert('ApiDown', 'firing', { fingerprint: 'eng-1' }), amAlert('CpuHigh', 'firing', { fingerprint: 'eng-2', severity: 'warning' })]);
    expect(await consumer().drain()).toBe(2);

    const incidents = await incidentsOf(ruleId);
    expect(incidents).toEqual([
      { id: expect.any(String), title: 'ApiDown is firing', description: 'ApiDown on api-1:9100', type: 'availability', severity: 'critical', status: 'open', created_by: null },
    ]);
    const incidentId = incidents[0]?.id ?? '';
    expect(await evidenceOf(incidentId)).toEqual([{ type: 'alert', name: 'ApiDown', description: 'Alert ApiDown is firing' }]);
    const responders = await server.pool.query<{ type: string; kind: string; email: string | null }>(
      `select r.type, r.properties ->> 'responderType' as kind, p.email from responders r left join people p on p.id = r.person_id where r.incident_id = $1 order by r.type`,
      [incidentId],
    );
    // Platform's email client (demo data) names a recipient, so the team responds through it.
    expect(responders.rows).toEqual([
      { type: 'person', kind: 'person', email: 'responder@opsdeck.local' },
      { type: 'system', kind: 'email', email: null },
    ]);
    expect(await historyOf(incidentId)).toEqual(
      expect.arrayContaining(['incident.created', 'hypothesis.created', 'evidence.created', 'responder.created', 'incident.rule_matched']),
    );
    // Handling the same event again (a retry after a crash) attaches nothing twice.
    const alertId = (await server.pool.query<{ id: string }>(`select id from alerts where fingerprint = 'eng-1'`)).rows[0]?.id ?? '';
    await enqueue(server.pool, 'alert.firing', { id: alertId, alert_id: alertId });
    await consumer().drain();
    expect(await incidentsOf(ruleId)).toHaveLength(1);
    expect(await evidenceOf(incidentId)).toHaveLength(1);
  });

  it('adds alerts of the same group key to the open incident, and resolves it when every one has resolved', async () => {
    const ruleId = await rule('grouped', alertSpec());
    await send([amAlert('Latency', 'firing', { fingerprint: 'grp-1', labels: { instance: 'a' } })]);
    await consumer().drain();
    await send([amAlert('Latency', 'firing', { fingerprint: 'grp-2', labels: { instance: 'b' } }), amAlert('Errors', 'firing', { fingerprint: 'grp-3' })]);
    await consumer().drain();

    const incidents = await incidentsOf(ruleId);
    expect(incidents.map((incident) => incident.title)).toEqual(['Latency is firing', 'Errors is firing']);
    const latency = incidents[0]?.id ?? '';
    expect((await evidenceOf(latency)).map((evidence) => evidence.name)).toEqual(['Latency', 'Latency']);

    await send([amAlert('Latency', 'resolved', { fingerprint: 'grp-1', labels: { instance: 'a' } })]);
    await consumer().drain();
    expect((await incidentsOf(ruleId))[0]?.status).toBe('open');

    await send([amAlert('Latency', 'resolved', { fingerprint: 'grp-2', labels: { instance: 'b' } })]);
    await consumer().drain();
    const after = await incidentsOf(ruleId);
    expect(after.map((incident) => incident.status)).toEqual(['resolved', 'open']);
    expect(await historyOf(latency)).toEqual(expect.arrayContaining(['incident.sources_recovered', 'incident.status_updated']));

    // Firing again after the group closed opens a new incident rather than reopening the resolved one.
    await send([amAlert('Latency', 'firing', { fingerprint: 'grp-1', labels: { instance: 'a' } })]);
    await consumer().drain();
    expect((await incidentsOf(ruleId)).map((incident) => `${incident.title}:${incident.status}`)).toEqual([
      'Latency is firing:resolved',
      'Errors is firing:open',
      'Latency is firing:open',
    ]);
  });

  it('opens a new incident when a match comes after the group window of the last one', async () => {
    const ruleId = await rule('windowed', alertSpec({ groupWindow: '10m' }));
    await send([amAlert('Saturation', 'firing', { fingerprint: 'win-1', labels: { instance: 'a' } })]);
    await consumer().drain();
    await server.pool.query(`update incident_rule_groups set last_matched_at = now() - interval '11 minutes' where rule_id = $1`, [ruleId]);
    await send([amAlert('Saturation', 'firing', { fingerprint: 'win-2', labels: { instance: 'b' } })]);
    await consumer().drain();
    const incidents = await incidentsOf(ruleId);
    expect(incidents).toHaveLength(2);
    expect(incidents.map((incident) => incident.status)).toEqual(['open', 'open']);

    // Inside the window the third joins the second.
    await send([amAlert('Saturation', 'firing', { fingerprint: 'win-3', labels: { instance: 'c' } })]);
    await consumer().drain();
    expect(await incidentsOf(ruleId)).toHaveLength(2);
    expect(await evidenceOf(incidents[1]?.id ?? '')).toHaveLength(2);
  });

  it('leaves the incident open when the rule does not auto-resolve, and lets a person resolve it', async () => {
    const ruleId = await rule('manual', alertSpec({ autoResolve: false }));
    await send([amAlert('Manual', 'firing', { fingerprint: 'man-1' })]);
    await consumer().drain();
    await send([amAlert('Manual', 'resolved', { fingerprint: 'man-1' })]);
    await consumer().drain();
    const [incident] = await incidentsOf(ruleId);
    expect(incident?.status).toBe('open');
    expect(await historyOf(incident?.id ?? '')).toContain('incident.sources_recovered');

    const resolved = await server.call('PATCH', `/api/db/incidents?id=eq.${incident?.id ?? ''}`, responder, { status: 'resolved' });
    expect(resolved.status).toBe(204);
    // The group of a person-resolved incident ends: the next firing opens a new incident instead of joining it.
    await send([amAlert('Manual', 'firing', { fingerprint: 'man-1' })]);
    await consumer().drain();
    expect((await incidentsOf(ruleId)).map((row) => row.status)).toEqual(['resolved', 'open']);
  });

  it('matches checks and components by their live state, and resolves when they recover', async () => {
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name) values ('rule-engine-tests') returning id`);
    const check = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, labels, status) values ($1, 'http', 'checkout-api', '{"app":"checkout"}', 'healthy') returning id`,
      [canary.rows[0]?.id],
    );
    const checkId = check.rows[0]?.id ?? '';
    const topology = await server.pool.query<{ id: string }>(`insert into topologies (name) values ('rule-engine-topology') returning id`);
    const component = await server.pool.query<{ id: string }>(
      `insert into components (topology_id, name, type, status, labels) values ($1, 'checkout-db', 'Database', 'healthy', '{"app":"checkout"}') returning id`,
      [topology.rows[0]?.id],
    );
    const componentId = component.rows[0]?.id ?? '';
    const ruleId = await rule('checkout', {
      sources: ['check', 'component'],
      filter: "(has(check.labels) && check.labels.app == 'checkout') || (has(component.labels) && component.labels.app == 'checkout')",
      incident: { title: 'Checkout degraded', type: 'availability', severity: 'high' },
      groupBy: ['check.labels.app'],
    });

    // The check scheduler writes the status and its event in one statement; the component's trigger writes its own.
    await server.pool.query(`update checks set status = 'unhealthy' where id = $1`, [checkId]);
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId });
    await server.pool.query(`update components set status = 'unhealthy' where id = $1`, [componentId]);
    await consumer().drain();

    const incidents = await incidentsOf(ruleId);
    // groupBy check.labels.app is null for a component, so it makes a group of its own.
    expect(incidents.map((incident) => incident.title)).toEqual(['Checkout degraded', 'Checkout degraded']);
    const types = await Promise.all(incidents.map(async (incident) => (await evidenceOf(incident.id)).map((evidence) => `${evidence.type}:${evidence.name}`)));
    expect(types.flat().sort()).toEqual(['check:checkout-api', 'topology:checkout-db']);

    await server.pool.query(`update checks set status = 'healthy' where id = $1`, [checkId]);
    await enqueue(server.pool, 'check.passed', { id: checkId, check_id: checkId });
    await server.pool.query(`update components set status = 'healthy' where id = $1`, [componentId]);
    await consumer().drain();
    expect((await incidentsOf(ruleId)).map((incident) => incident.status)).toEqual(['resolved', 'resolved']);

    // A failure event handled after the check already recovered opens nothing: the engine acts on the live state.
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId });
    await consumer().drain();
    expect(await incidentsOf(ruleId)).toHaveLength(2);
  });

  it('opens exactly one incident per group when two consumers handle a burst of its alerts at once', async () => {
    const ruleId = await rule('burst', alertSpec());
    const burst = Array.from({ length: 24 }, (_, i) => amAlert('Burst', 'firing', { fingerprint: `burst-${i}`, labels: { instance: `node-${i}` } }));
    const other = Array.from({ length: 6 }, (_, i) => amAlert('BurstOther', 'firing', { fingerprint: `burst-other-${i}`, labels: { instance: `node-${i}` } }));
    await send([...burst, ...other]);
    const [a, b] = await Promise.all([consumer(60_000).drain(), consumer(60_000).drain()]);
    expect(a + b).toBe(30);

    const incidents = await incidentsOf(ruleId);
    expect(incidents.map((incident) => incident.title).sort()).toEqual(['Burst is firing', 'BurstOther is firing']);
    const counts = await Promise.all(incidents.map(async (incident) => (await evidenceOf(incident.id)).length));
    expect(counts.sort((x, y) => x - y)).toEqual([6, 24]);
    const open = await server.pool.query(`select 1 from incident_rule_groups where rule_id = $1 and closed_at is null`, [ruleId]);
    expect(open.rowCount).toBe(2);
    const left = await server.pool.query(`select 1 from event_queue where consumer = $1`, [INCIDENT_RULES_CONSUMER]);
    expect(left.rowCount).toBe(0);
  });
});
