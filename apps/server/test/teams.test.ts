import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/**
 * Teams and their members through the data API, as the Teams tab of spec 002 §2.2 calls it (§7): teams are soft
 * deleted (§4), members are embedded with `person_id(*)`, added as a list and removed by person and team. Teams are a
 * write on `database` (editors and admins); their members make people approvers of playbook runs, so changing them is
 * the `rbac` write (admins; test/security/playbook-approvals.test.ts).
 */

const RETURN_ROWS = { prefer: 'return=representation' };

interface MemberRow {
  team_id: string;
  person_id: { id: string; name: string; email: string | null };
}

async function idOf(server: TestServer, sql: string, values: unknown[] = []): Promise<string> {
  const result = await server.pool.query<{ id: string }>(sql, values);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`no row from ${sql}`);
  return id;
}

describe('teams and their members through the data API', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;
  let responder: string;
  let teamId: string;
  let adaId: string;
  let vicId: string;

  beforeAll(async () => {
    server = await startTestServer();
    [admin, editor, viewer, responder] = await Promise.all([
      server.cookieFor('admin'),
      server.cookieFor('editor'),
      server.cookieFor('viewer'),
      server.cookieFor('responder'),
    ]);
    teamId = await idOf(server, `insert into teams (name, icon) values ('Storage', 'postgres') returning id`);
    adaId = await idOf(server, `select id from people where email = 'admin@opsdeck.local'`);
    vicId = await idOf(server, `select id from people where email = 'viewer@opsdeck.local'`);
  });
  afterAll(async () => {
    await server.close();
  });

  const members = async (cookie: string): Promise<MemberRow[]> => {
    const reply = await server.call('GET', `/api/db/team_members?team_id=eq.${teamId}&select=*,person_id(*)&order=created_at`, cookie);
    expect(reply.status).toBe(200);
    return JSON.parse(reply.text) as MemberRow[];
  };

  it('adds a list of members with one POST and lists them with the person embedded through person_id(*)', async () => {
    const added = await server.call(
      'POST',
      '/api/db/team_members',
      admin,
      [
        { team_id: teamId, person_id: adaId },
        { team_id: teamId, person_id: vicId },
      ],
      RETURN_ROWS,
    );
    expect(added.status).toBe(201);
    const listed = await members(viewer);
    expect(listed.map((row) => row.person_id.email).sort()).toEqual(['admin@opsdeck.local', 'viewer@opsdeck.local']);
    expect(listed[0]?.person_id).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });

  it('removes one member by person and team, leaving the others', async () => {
    const removed = await server.call('DELETE', `/api/db/team_members?person_id=eq.${vicId}&team_id=eq.${teamId}`, admin);
    expect(removed.status).toBe(204);
    expect((await members(editor)).map((row) => row.person_id.email)).toEqual(['admin@opsdeck.local']);
  });

  it("counts a team's members in the list view, people deleted since left out", async () => {
    const count = async () => {
      const reply = await server.call('GET', `/api/db/teams_with_status?id=eq.${teamId}&select=member_count`, viewer);
      return (reply.json as unknown as Array<{ member_count: number }>)[0]?.member_count;
    };
    expect(await count()).toBe(1);
    const ghost = await idOf(server, `insert into people (name, email, deleted_at) values ('Gone', 'gone@opsdeck.local', now()) returning id`);
    await server.pool.query('insert into team_members (team_id, person_id) values ($1, $2)', [teamId, ghost]);
    expect(await count()).toBe(1);
    await server.pool.query('delete from team_members where person_id = $1', [ghost]);
  });

  it('refuses an editor, a viewer and a responder adding or removing members, and changes nothing', async () => {
    for (const cookie of [editor, viewer, responder]) {
      const add = await server.call('POST', '/api/db/team_members', cookie, [{ team_id: teamId, person_id: vicId }]);
      expect(add.status).toBe(403);
      expect(add.json).toMatchObject({ code: '42501' });
      const remove = await server.call('DELETE', `/api/db/team_members?person_id=eq.${adaId}&team_id=eq.${teamId}`, cookie);
      expect(remove.status).toBe(403);
    }
    expect((await members(editor)).map((row) => row.person_id.email)).toEqual(['admin@opsdeck.local']);
  });

  it('refuses a viewer deleting a team', async () => {
    const reply = await server.call('DELETE', `/api/db/teams?id=eq.${teamId}`, viewer);
    expect(reply.status).toBe(403);
    const row = await server.pool.query<{ deleted: boolean }>('select deleted_at is not null as deleted from teams where id = $1', [teamId]);
    expect(row.rows[0]?.deleted).toBe(false);
  });

  it('soft deletes a team: the row stays with deleted_at set, and the lists no longer show it', async () => {
    const listedBefore = await server.call('GET', '/api/db/teams_with_status?select=id,name', viewer);
    expect((listedBefore.json as unknown as Array<{ id: string }>).map((row) => row.id)).toContain(teamId);

    const reply = await server.call('DELETE', `/api/db/teams?id=eq.${teamId}`, editor);
    expect(reply.status).toBe(204);

    const row = await server.pool.query<{ name: string; deleted: boolean }>('select name, deleted_at is not null as deleted from teams where id = $1', [teamId]);
    expect(row.rows[0]).toEqual({ name: 'Storage', deleted: true });
    const status = await server.call('GET', `/api/db/teams_with_status?id=eq.${teamId}`, viewer);
    expect(status.json).toEqual([]);
    const live = await server.call('GET', `/api/db/teams?id=eq.${teamId}&deleted_at=is.null`, viewer);
    expect(live.json).toEqual([]);
  });

  it('keeps a deleted team deleted when it is deleted again, without moving its deletion time', async () => {
    const before = await server.pool.query<{ deleted_at: string }>('select deleted_at::text from teams where id = $1', [teamId]);
    const reply = await server.call('DELETE', `/api/db/teams?id=eq.${teamId}`, editor);
    expect(reply.status).toBe(204);
    const after = await server.pool.query<{ deleted_at: string }>('select deleted_at::text from teams where id = $1', [teamId]);
    expect(after.rows[0]?.deleted_at).toEqual(before.rows[0]?.deleted_at);
  });
});

describe('incident rules through the generic settings pages', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists live rules with the job columns of a settings list, to anyone who reads incidents', async () => {
    const live = await idOf(server, `insert into incident_rules (name, spec) values ('page on-call', '{"filter":"true"}') returning id`);
    const gone = await idOf(server, `insert into incident_rules (name, deleted_at) values ('old rule', now()) returning id`);
    const reply = await server.call('GET', '/api/db/incident_rules_with_status?select=id,name,namespace,source,job_status,last_runtime,job_last_failed', await server.cookieFor('viewer'));
    expect(reply.status).toBe(200);
    const rows = reply.json as unknown as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.id)).toContain(live);
    expect(rows.map((row) => row.id)).not.toContain(gone);
    expect(rows.find((row) => row.id === live)).toEqual({ id: live, name: 'page on-call', namespace: 'default', source: 'UI', job_status: null, last_runtime: null, job_last_failed: null });
  });

  it('lets a commander edit a rule, as the incident resource allows, and refuses a viewer', async () => {
    const id = await idOf(server, `insert into incident_rules (name) values ('edit me') returning id`);
    const spec = { filter: 'false', incident: { title: 'Never', type: 'availability', severity: 'low' } };
    const viewer = await server.call('PATCH', `/api/db/incident_rules?id=eq.${id}`, await server.cookieFor('viewer'), { spec });
    expect(viewer.status).toBe(403);
    const commander = await server.call('PATCH', `/api/db/incident_rules?id=eq.${id}`, await server.cookieFor('commander'), { spec });
    expect(commander.status).toBe(204);
    const row = await server.pool.query<{ spec: unknown }>('select spec from incident_rules where id = $1', [id]);
    expect(row.rows[0]?.spec).toEqual(spec);
  });
});
