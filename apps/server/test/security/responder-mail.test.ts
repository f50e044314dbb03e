import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@opsdeck/shared';
import { startTestServer, type TestServer } from '../harness';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';
import { callWithToken, createApiToken } from '../audit-support';

/**
 * Issue #31, hole 6: a signed-in responder sent mail of their choosing, to whom they chose, through a team's SMTP
 * connection by adding an email responder through /api/db/responders. docs/security.md grants email and Jira
 * responders to commanders and up; each way a responder could write one is tried here and must fail, while a
 * commander's responder still sends.
 */

const ATTACKER = 'attacker@evil.test';
const RETURN_ROWS = { prefer: 'return=representation' };

describe('responder mail attacks fail', () => {
  let server: TestServer;
  let sink: SmtpSink;
  const cookies = {} as Record<'responder' | 'commander', string>;
  const people = {} as Record<Role, string>;
  let teamId: string;
  let incidentId: string;
  let commanderResponder: string;

  async function one(sql: string, values: unknown[] = []): Promise<string> {
    const result = await server.pool.query<{ id: string }>(sql, values);
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error(`no row from ${sql}`);
    return id;
  }

  const emailTo = (to: string) => ({ responderType: 'email', to, subject: 'Your invoice', body: 'Pay here: https://evil.test/pay' });
  const systemResponder = (properties: Record<string, unknown>) => ({ type: 'system', incident_id: incidentId, team_id: teamId, properties });

  async function attackerResponders(): Promise<number> {
    const found = await server.pool.query(`select 1 from responders where properties ->> 'to' = $1`, [ATTACKER]);
    return found.rowCount ?? 0;
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    // The responder notifier is an event-queue consumer of the worker roles.
    server = await startTestServer({ workers: true });
    cookies.responder = await server.cookieFor('responder');
    cookies.commander = await server.cookieFor('commander');
    for (const role of ['admin', 'editor', 'commander', 'responder', 'viewer'] as const) {
      people[role] = await one('select id from people where email = $1', [`${role}@opsdeck.local`]);
    }
    await server.pool.query(`insert into connections (name, namespace, type, url, properties) values ('team-mail', 'default', 'email', $1, $2)`, [
      sink.url,
      JSON.stringify({ from: 'opsdeck@example.com', encryptionMethod: 'None', authMethod: 'None' }),
    ]);
    teamId = await one(`insert into teams (name, spec) values ('Mail under attack', $1) returning id`, [
      JSON.stringify({ responder_clients: { email: { connection: 'team-mail' }, jira: { connection: 'team-mail' } } }),
    ]);
    incidentId = await one(`insert into incidents (title, severity) values ('Checkout is down', 'high') returning id`);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  it('lets a commander add an email responder, which mails the recipient through the team’s connection', async () => {
    const added = await server.call('POST', '/api/db/responders', cookies.commander, systemResponder(emailTo('oncall@example.com')), RETURN_ROWS);
    expect(added.status, added.text).toBe(201);
    commanderResponder = String((added.json as unknown as Array<{ id: string }>)[0]?.id);
    const mail = await sink.waitFor('oncall@example.com');
    expect(mail.subject).toBe('Your invoice');
  });

  it('refuses a responder adding an email or a Jira responder, with a coded 403, and stores nothing', async () => {
    const email = await server.call('POST', '/api/db/responders', cookies.responder, systemResponder(emailTo(ATTACKER)));
    expect(email.status, email.text).toBe(403);
    expect(email.json).toMatchObject({ code: 'OD_RESPONDER_CLIENT_ROLE', details: 'properties.responderType' });
    const jira = await server.call(
      'POST',
      '/api/db/responders',
      cookies.responder,
      systemResponder({ responderType: 'jira', project: 'OPS', issueType: 'Bug', priority: 'High', summary: 's', description: 'd', instance: 'team-mail' }),
    );
    expect(jira.status, jira.text).toBe(403);
    expect(jira.json.code).toBe('OD_RESPONDER_CLIENT_ROLE');
    expect(await attackerResponders()).toBe(0);
  });

  it('refuses a responder rewriting the recipient of a commander’s email responder, by filtered PATCH and by upsert', async () => {
    const patched = await server.call('PATCH', `/api/db/responders?id=eq.${commanderResponder}`, cookies.responder, { properties: emailTo(ATTACKER) });
    expect(patched.status, patched.text).toBe(403);
    const upserted = await server.call(
      'POST',
      '/api/db/responders',
      cookies.responder,
      { id: commanderResponder, ...systemResponder(emailTo(ATTACKER)) },
      { prefer: 'resolution=merge-duplicates' },
    );
    expect(upserted.status, upserted.text).toBe(403);
    expect(await attackerResponders()).toBe(0);
  });

  it('refuses a responder smuggling an email client into a person responder, or turning a person responder into a team’s', async () => {
    const smuggled = await server.call('POST', '/api/db/responders', cookies.responder, {
      type: 'person',
      incident_id: incidentId,
      person_id: people.viewer,
      team_id: teamId,
      properties: emailTo(ATTACKER),
    });
    expect(smuggled.status, smuggled.text).toBe(403);
    const plain = await server.call('POST', '/api/db/responders', cookies.responder, { type: 'person', incident_id: incidentId, person_id: people.viewer }, RETURN_ROWS);
    expect(plain.status, plain.text).toBe(201);
    const plainId = String((plain.json as unknown as Array<{ id: string }>)[0]?.id);
    for (const change of [{ type: 'system' }, { team_id: teamId }]) {
      const turned = await server.call('PATCH', `/api/db/responders?id=eq.${plainId}`, cookies.responder, change);
      expect(turned.status, turned.text).toBe(403);
      expect(turned.json.code).toBe('OD_RESPONDER_CLIENT_ROLE');
    }
    expect(await attackerResponders()).toBe(0);
  });

  it('refuses an API token with the responder role, even one a commander made', async () => {
    const { token, status } = await createApiToken(server, cookies.commander, 'responder', 'alertmanager');
    expect(status).toBe(201);
    const reply = await callWithToken(server, token, 'POST', '/api/db/responders', systemResponder(emailTo(ATTACKER)));
    expect(reply.status, reply.text).toBe(403);
    expect(reply.json.code).toBe('OD_RESPONDER_CLIENT_ROLE');
  });

  it('still lets a responder add a team or a person as a responder and acknowledge a team’s email responder', async () => {
    const person = await server.call('POST', '/api/db/responders', cookies.responder, { type: 'person', incident_id: incidentId, person_id: people.editor });
    expect(person.status, person.text).toBe(201);
    const acknowledged = await server.call('PATCH', `/api/db/responders?id=eq.${commanderResponder}`, cookies.responder, {
      acknowledge_time: new Date().toISOString(),
    });
    expect(acknowledged.status, acknowledged.text).toBe(204);
  });

  it('sent no mail to the attacker on any of those paths: the only mail that left is the commander’s', async () => {
    const second = sink.mails.length;
    const added = await server.call('POST', '/api/db/responders', cookies.commander, systemResponder(emailTo('lead@example.com')));
    expect(added.status, added.text).toBe(201);
    // No attacker row was ever stored, so no event could mail them; this mail shows the notifier ran all along.
    await sink.waitFor('lead@example.com', { since: second });
    const recipients = sink.mails.flatMap((mail) => (Array.isArray(mail.to) ? mail.to : mail.to === undefined ? [] : [mail.to]).flatMap((to) => to.value.map((entry) => entry.address)));
    expect(recipients).not.toContain(ATTACKER);
    expect(recipients.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
  });
});
