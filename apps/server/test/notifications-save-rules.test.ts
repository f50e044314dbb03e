import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('notification save rules on the data API', () => {
  let server: TestServer;
  let editor: string;
  let editorId: string;
  let teamId: string;

  const post = (body: Record<string, unknown>, cookie = editor) =>
    server.call('POST', '/api/db/notifications', cookie, body, { prefer: 'return=representation' });

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    editorId = (await server.pool.query<{ id: string }>(`select id from people where email = 'editor@opsdeck.local'`)).rows[0]?.id ?? '';
    teamId = (await server.pool.query<{ id: string }>(`insert into teams (name) values ('save-rules-team') returning id`)).rows[0]?.id ?? '';
    await server.pool.query(
      `insert into connections (name, namespace, type, url) values
         ('save-rules-hook', 'default', 'generic_webhook', 'http://127.0.0.1:9/hook'),
         ('save-rules-db', 'default', 'postgres', 'postgres://127.0.0.1:9/db')`,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('saves a valid notification and records the editor as its creator whatever the body says', async () => {
    const reply = await post({
      name: 'failing checks',
      events: ['check.failed'],
      filter: "check.type == 'http'",
      template: '{{ check.name }} failed',
      team_id: teamId,
      created_by: null,
      properties: { flapWindowSeconds: 60 },
    });
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject([{ created_by: editorId, source: 'UI', team_id: teamId }]);
  });

  it('saves custom services naming a deliverable connection by reference', async () => {
    const reply = await post({ events: ['config.updated'], custom_services: [{ connection: 'connection://default/save-rules-hook', name: 'hook' }] });
    expect(reply.status).toBe(201);
  });

  it('saves custom services naming a connection that does not exist yet, whose sends fail naming it until it is created', async () => {
    const reply = await post({ events: ['check.failed'], custom_services: [{ connection: 'connection://default/created-later' }] });
    expect(reply.status).toBe(201);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['no events', { events: [], team_id: 'TEAM' }, 'OD_NOTIFICATION_EVENTS'],
    ['an unknown event', { events: ['check.exploded'], team_id: 'TEAM' }, 'OD_NOTIFICATION_EVENTS'],
    ['a filter that is not CEL', { events: ['check.failed'], filter: 'check.name ==', team_id: 'TEAM' }, 'OD_NOTIFICATION_FILTER'],
    ['a filter over a variable its events do not have', { events: ['check.failed'], filter: "config.name == 'x'", team_id: 'TEAM' }, 'OD_NOTIFICATION_FILTER'],
    ['a template that does not parse', { events: ['check.failed'], template: '{% if check.name %}open', team_id: 'TEAM' }, 'OD_NOTIFICATION_TEMPLATE'],
    ['two recipients', { events: ['check.failed'], team_id: 'TEAM', person_id: 'EDITOR' }, 'OD_NOTIFICATION_RECIPIENT'],
    ['no recipient', { events: ['check.failed'] }, 'OD_NOTIFICATION_RECIPIENT'],
    ['a connection of a type notifications cannot deliver to', { events: ['check.failed'], custom_services: [{ connection: 'save-rules-db' }] }, 'OD_NOTIFICATION_CONNECTION'],
    ['properties that are not an object', { events: ['check.failed'], team_id: 'TEAM', properties: [1] }, 'OD_NOTIFICATION_PROPERTIES'],
    ['a repeatInterval that is not a duration', { events: ['check.failed'], team_id: 'TEAM', properties: { repeatInterval: 'soon' } }, 'OD_NOTIFICATION_PROPERTIES'],
    ['a source other than the UI', { events: ['check.failed'], team_id: 'TEAM', source: 'KubernetesCRD' }, 'OD_NOTIFICATION_SOURCE'],
  ];

  for (const [what, body, code] of refusals) {
    it(`refuses ${what} with ${code}`, async () => {
      const filled = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value === 'TEAM' ? teamId : value === 'EDITOR' ? editorId : value]));
      const reply = await post(filled);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code, message: expect.any(String), details: expect.any(String), hint: expect.any(String) });
    });
  }

  it('lists the deliverable connection types when it refuses a connection', async () => {
    const reply = await post({ events: ['check.failed'], custom_services: [{ connection: 'save-rules-db' }] });
    expect(reply.json.hint).toContain('generic_webhook');
  });

  it('applies the rules to a PATCH and an upsert too', async () => {
    const created = await post({ events: ['check.failed'], team_id: teamId });
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
    const patched = await server.call('PATCH', `/api/db/notifications?id=eq.${id}`, editor, { filter: 'check.name ==' });
    expect(patched.status).toBe(400);
    expect(patched.json.code).toBe('OD_NOTIFICATION_FILTER');
    const upserted = await server.call('POST', '/api/db/notifications?on_conflict=id', editor, { id, events: ['check.nope'], team_id: teamId }, {
      prefer: 'resolution=merge-duplicates',
    });
    expect(upserted.status).toBe(400);
    expect(upserted.json.code).toBe('OD_NOTIFICATION_EVENTS');
    const both = await server.call('PATCH', `/api/db/notifications?id=eq.${id}`, editor, { person_id: editorId, team_id: teamId });
    expect(both.json.code).toBe('OD_NOTIFICATION_RECIPIENT');
  });

  it('replaces the recipient when a PATCH names another one, so a row never has two', async () => {
    const created = await post({ events: ['check.failed'], team_id: teamId });
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
    const patched = await server.call('PATCH', `/api/db/notifications?id=eq.${id}`, editor, { person_id: editorId }, { prefer: 'return=representation' });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject([{ person_id: editorId, team_id: null, custom_services: null, created_by: editorId }]);
  });

  it('refuses to change or delete a notification another source owns, leaving it as it was', async () => {
    const owned = await server.pool.query<{ id: string }>(
      `insert into notifications (name, events, team_id, source) values ('from-crd', '{check.failed}', $1, 'KubernetesCRD') returning id`,
      [teamId],
    );
    const id = owned.rows[0]?.id ?? '';
    const patched = await server.call('PATCH', `/api/db/notifications?id=eq.${id}`, editor, { title: 'taken over', source: 'UI' });
    expect(patched.status).toBe(400);
    expect(patched.json).toMatchObject({ code: 'OD_NOTIFICATION_SOURCE', message: 'This notification comes from KubernetesCRD and cannot be changed here' });
    const deleted = await server.call('DELETE', `/api/db/notifications?id=eq.${id}`, editor);
    expect(deleted.status).toBe(400);
    expect(deleted.json.code).toBe('OD_NOTIFICATION_SOURCE');
    const row = await server.pool.query(`select title, source, deleted_at from notifications where id = $1`, [id]);
    expect(row.rows).toEqual([{ title: null, source: 'KubernetesCRD', deleted_at: null }]);
    await server.pool.query(`update notifications set title = 'synced' where id = $1`, [id]);
    expect((await server.pool.query(`select title from notifications where id = $1`, [id])).rows).toEqual([{ title: 'synced' }]);
  });

  it('lets neither a viewer nor a responder write notifications', async () => {
    for (const role of ['viewer', 'responder'] as const) {
      const reply = await post({ events: ['check.failed'], team_id: teamId }, await server.cookieFor(role));
      expect(reply.status, role).toBe(403);
    }
  });
});
