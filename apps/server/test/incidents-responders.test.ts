import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../src/platform/secrets';
import { startFakeJiraServer, type FakeJiraServer } from './fixtures/incidents/fake-jira-server';
import { startFakeSmtpServer, type FakeSmtpServer } from './fixtures/incidents/fake-smtp-server';
import { startIncidentFixture, waitFor, type IncidentFixture } from './fixtures/incidents/incident-fixture';

interface ResponderRecord {
  id: string;
  external_id: string | null;
  properties: Record<string, unknown>;
  deleted_at: string | null;
}

describe('responders notify their systems', () => {
  let fx: IncidentFixture;
  let smtp: FakeSmtpServer;
  let jira: FakeJiraServer;
  let incidentId: string;
  let teamId: string;

  beforeAll(async () => {
    // The evaluator and the event-queue consumer run only in worker roles.
    fx = await startIncidentFixture({ workers: true });
    smtp = await startFakeSmtpServer();
    jira = await startFakeJiraServer();
    const { pool } = fx.server;
    const key = fx.server.running.context.config.secretKey;
    await pool.query(
      `insert into connections (name, namespace, type, url, username, password_encrypted, properties)
       values ('mail', 'default', 'email', $1, 'mailer', $2, $3)`,
      [`smtp://127.0.0.1:${smtp.port}`, encryptSecret(key, 'mail-secret'), JSON.stringify({ from: 'opsdeck@example.com', fromName: 'Opsdeck', encryptionMethod: 'None' })],
    );
    await pool.query(
      `insert into connections (name, namespace, type, url, username, password_encrypted) values ('jira', 'ops', 'jira', $1, 'bot@example.com', $2)`,
      [jira.url, encryptSecret(key, 'jira-token')],
    );
    const team = await pool.query<{ id: string }>(
      `insert into teams (name, spec) values ('Responders under test', $1) returning id`,
      [JSON.stringify({ responder_clients: { email: { connection: 'mail' }, jira: { connection: 'ops/jira', linkUrl: 'https://jira.example.com/browse/{key}' } } })],
    );
    teamId = team.rows[0]?.id ?? '';
    const incident = await pool.query<{ id: string }>(`insert into incidents (title, severity) values ('Checkout is slow', 'high') returning id`);
    incidentId = incident.rows[0]?.id ?? '';
  });

  afterAll(async () => {
    await fx.close();
    await smtp.close();
    await jira.close();
  });

  // Email and Jira responders send through the team's connection: commanders and up (test/security/responder-mail.test.ts).
  async function addResponder(properties: Record<string, unknown>): Promise<ResponderRecord> {
    const db = await fx.db('commander');
    const { data, error } = await db
      .from('responders')
      .insert({ type: 'system', incident_id: incidentId, team_id: teamId, created_by: await fx.personId('commander'), properties })
      .select('*')
      .single();
    expect(error).toBeNull();
    return data as ResponderRecord;
  }

  async function responder(id: string): Promise<ResponderRecord> {
    const result = await fx.server.pool.query<ResponderRecord>('select id, external_id, properties, deleted_at from responders where id = $1', [id]);
    const row = result.rows[0];
    if (row === undefined) throw new Error('responder vanished');
    return row;
  }

  it('sends an email through the team’s SMTP connection with the decrypted password', async () => {
    const created = await addResponder({ responderType: 'email', to: 'oncall@example.com', subject: 'INC needs you', body: 'Checkout latency is up.\n.\nPlease look.' });
    const mail = await smtp.nextMessage();
    expect(mail.to).toEqual(['oncall@example.com']);
    expect(mail.from).toBe('opsdeck@example.com');
    expect(mail.auth).toEqual({ user: 'mailer', pass: 'mail-secret' });
    expect(mail.data).toContain('Subject: INC needs you');
    expect(mail.data).toContain('Checkout latency is up.');
    expect(mail.data).toContain('Please look.');
    const stored = await waitFor(async () => {
      const row = await responder(created.id);
      return typeof row.properties.sent_at === 'string' ? row : undefined;
    });
    expect(stored.properties.error).toBeUndefined();
    // The consumer records sent_at in its handler and removes the event once the handler returns: wait for both.
    const drained = await waitFor(async () => {
      const queued = await fx.server.pool.query(`select 1 from event_queue where properties ->> 'id' = $1`, [created.id]);
      return queued.rowCount === 0 ? true : undefined;
    });
    expect(drained).toBe(true);
  });

  it('creates a Jira issue over the REST API and stores its key as external_id', async () => {
    const created = await addResponder({
      responderType: 'jira',
      project: 'OPS',
      issueType: 'Incident',
      priority: 'High',
      summary: 'Checkout is slow',
      description: 'p95 above 2s since 10:00',
      instance: 'ops/jira',
    });
    const stored = await waitFor(async () => {
      const row = await responder(created.id);
      return row.external_id === null ? undefined : row;
    });
    expect(stored.external_id).toBe('OPS-1');
    expect(stored.properties.link).toBe('https://jira.example.com/browse/OPS-1');
    const request = jira.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/rest/api/2/issue');
    expect(request?.authorization).toBe(`Basic ${Buffer.from('bot@example.com:jira-token').toString('base64')}`);
    expect(request?.body).toEqual({
      fields: {
        project: { key: 'OPS' },
        issuetype: { name: 'Incident' },
        priority: { name: 'High' },
        summary: 'Checkout is slow',
        description: 'p95 above 2s since 10:00',
      },
    });
  });

  it('records a Jira refusal on the responder and on its event for a retry', async () => {
    jira.failNext({ project: 'project is required' });
    const created = await addResponder({
      responderType: 'jira',
      project: 'NOPE',
      issueType: 'Incident',
      priority: 'High',
      summary: 's',
      description: 'd',
      instance: 'ops/jira',
    });
    const stored = await waitFor(async () => {
      const row = await responder(created.id);
      return typeof row.properties.error === 'string' ? row : undefined;
    });
    expect(stored.properties.error).toBe('Jira answered 400: project: project is required');
    expect(stored.external_id).toBeNull();
    const event = await fx.server.pool.query<{ error: string; attempts: number; last_attempt: string | null }>(
      `select error, attempts, last_attempt from event_queue where name = 'responder.created' and properties ->> 'id' = $1`,
      [created.id],
    );
    expect(event.rows[0]).toMatchObject({ error: 'Jira answered 400: project: project is required', attempts: 1 });
    expect(Date.parse(event.rows[0]?.last_attempt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a responder missing a required field with the spec message', async () => {
    const db = await fx.db('commander');
    const { error, status } = await db
      .from('responders')
      .insert({ type: 'system', incident_id: incidentId, team_id: teamId, properties: { responderType: 'email', to: 'a@b.c', subject: 'x', body: ' ' } })
      .select('*');
    expect(status).toBe(400);
    expect(error?.message).toBe('Please provide valid value');
    expect(error?.details).toBe('properties.body is required');
  });

  it('refuses an unknown responder type', async () => {
    const db = await fx.db('responder');
    const { error, status } = await db
      .from('responders')
      .insert({ type: 'system', incident_id: incidentId, team_id: teamId, properties: { responderType: 'pager' } })
      .select('*');
    expect(status).toBe(400);
    expect(error?.message).toBe('Please provide valid value');
  });

  it('records other types with their properties and consumes their event without calling out', async () => {
    const before = jira.requests.length;
    const created = await addResponder({ responderType: 'vmware', product: 'vSphere', category: 'Outage', description: 'Host down', body: 'esx-3' });
    await waitFor(async () => {
      const queued = await fx.server.pool.query(`select 1 from event_queue where properties ->> 'id' = $1`, [created.id]);
      return queued.rowCount === 0 ? true : undefined;
    });
    const row = await responder(created.id);
    expect(row.properties).toEqual({ responderType: 'vmware', product: 'vSphere', category: 'Outage', description: 'Host down', body: 'esx-3' });
    expect(jira.requests.length).toBe(before);
  });

  it('adds a person responder and lists responders with team and person, hiding soft-deleted ones', async () => {
    const db = await fx.db('commander');
    const person = await fx.personId('viewer');
    const added = await db.from('responders').insert({ type: 'person', incident_id: incidentId, person_id: person }).select('*').single();
    expect(added.error).toBeNull();
    const id = (added.data as ResponderRecord).id;
    const list = await db
      .from('responders')
      .select('*,team(id,name,icon,spec),person(id,name,avatar)')
      .eq('incident_id', incidentId)
      .is('deleted_at', null);
    expect(list.error).toBeNull();
    const rows = list.data as Array<{ id: string; team: { name: string; spec: unknown } | null; person: { name: string } | null }>;
    expect(rows.find((r) => r.id === id)?.person).toMatchObject({ name: 'Vic Viewer' });
    expect(rows.find((r) => r.team !== null)?.team).toMatchObject({ name: 'Responders under test' });
    const removed = await db.from('responders').update({ deleted_at: new Date().toISOString() }).eq('id', id);
    expect(removed.error).toBeNull();
    const after = await db.from('responders').select('id').eq('incident_id', incidentId).is('deleted_at', null);
    expect((after.data as Array<{ id: string }>).map((r) => r.id)).not.toContain(id);
    const kept = await fx.server.pool.query('select deleted_at from responders where id = $1', [id]);
    expect(kept.rows[0]?.deleted_at).toEqual(expect.any(String));
  });
});
