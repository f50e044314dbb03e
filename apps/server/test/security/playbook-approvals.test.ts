import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@opsdeck/shared';
import { startTestServer, type TestServer } from '../harness';

/**
 * Issue #31, hole 3: an editor got their own run of an admin-written exec playbook on a production item approved by
 * making a team with the approver team's name, or by adding themselves to the real one, and then approving it
 * themselves. Each attack is performed here as the editor did it and must fail; the run must stay `waiting`.
 */

const RETURN_ROWS = { prefer: 'return=representation' };

describe('playbook approval attacks fail', () => {
  let server: TestServer;
  const cookies = {} as Record<Role, string>;
  const people = {} as Record<Role, string>;
  let productionItem: string;

  async function one(sql: string, values: unknown[] = []): Promise<string> {
    const result = await server.pool.query<{ id: string }>(sql, values);
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error(`no row from ${sql}`);
    return id;
  }

  /** A team of the admin's making, with these members, added by the admin through the data API. */
  async function adminTeam(members: readonly Role[]): Promise<{ id: string; name: string }> {
    const name = `Release approvers ${randomUUID().slice(0, 8)}`;
    const created = await server.call('POST', '/api/db/teams', cookies.admin, { name }, RETURN_ROWS);
    expect(created.status, created.text).toBe(201);
    const id = String((created.json as unknown as Array<{ id: string }>)[0]?.id);
    if (members.length > 0) {
      const added = await server.call('POST', '/api/db/team_members', cookies.admin, members.map((role) => ({ team_id: id, person_id: people[role] })));
      expect(added.status, added.text).toBe(201);
    }
    return { id, name };
  }

  /** An admin's exec playbook on production deployments that waits for `approvers`. */
  async function adminExecPlaybook(approvers: { people?: string[]; teams?: string[] }): Promise<string> {
    const spec = {
      configs: [{ types: ['Kubernetes::Deployment'], tagSelector: 'environment=production' }],
      approval: { approvers },
      actions: [{ name: 'restart', exec: { script: 'kubectl rollout restart deployment/checkout' } }],
    };
    const saved = await server.call('POST', '/api/db/playbooks', cookies.admin, { name: `restart-${randomUUID().slice(0, 8)}`, spec }, RETURN_ROWS);
    expect(saved.status, saved.text).toBe(201);
    return String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
  }

  async function requestRun(playbookId: string, role: Role): Promise<string> {
    const requested = await server.call('POST', '/api/playbook/run', cookies[role], { id: playbookId, config_id: productionItem });
    expect(requested.status, requested.text).toBe(201);
    return String(requested.json.run_id);
  }

  const approve = (playbookId: string, runId: string, role: Role) => server.call('POST', `/api/playbook/run/approve/${playbookId}/${runId}`, cookies[role]);

  async function statusOf(runId: string): Promise<string> {
    const row = await server.pool.query<{ status: string }>('select status from playbook_runs where id = $1', [runId]);
    return row.rows[0]?.status ?? 'missing';
  }

  beforeAll(async () => {
    server = await startTestServer();
    for (const role of ROLES) {
      cookies[role] = await server.cookieFor(role);
      people[role] = await one('select id from people where email = $1', [`${role}@opsdeck.local`]);
    }
    productionItem = await one(
      `insert into config_items (type, config_class, name, tags) values ('Kubernetes::Deployment', 'Kubernetes', 'checkout', '{"environment": "production"}') returning id`,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  describe('a team with the approver team’s name', () => {
    it('does not make its members approvers: the spec’s team name was resolved to the real team’s id when it was saved', async () => {
      const real = await adminTeam(['commander']);
      const playbook = await adminExecPlaybook({ teams: [real.name] });
      const runId = await requestRun(playbook, 'editor');

      const impostor = await server.call('POST', '/api/db/teams', cookies.editor, { name: real.name }, RETURN_ROWS);
      expect(impostor.status, impostor.text).toBe(201);
      const impostorId = String((impostor.json as unknown as Array<{ id: string }>)[0]?.id);
      // Membership itself is now out of the editor's reach (below); give the impostor team members as an admin would
      // by mistake, so only the id match stands between them and the run.
      await server.pool.query('insert into team_members (team_id, person_id) values ($1, $2), ($1, $3)', [impostorId, people.editor, people.viewer]);

      const accomplice = await approve(playbook, runId, 'viewer');
      expect(accomplice.status, accomplice.text).toBe(403);
      expect(accomplice.json.code).toBe('OD_PLAYBOOK_NOT_APPROVER');
      const self = await approve(playbook, runId, 'editor');
      expect(self.status, self.text).toBe(403);
      expect(await statusOf(runId)).toBe('waiting');

      const rightful = await approve(playbook, runId, 'commander');
      expect(rightful.status, rightful.text).toBe(200);
      expect(rightful.json.status).toBe('pending');
    });

    it('does not count for a run requested after the impostor team was made either', async () => {
      const real = await adminTeam(['commander']);
      const playbook = await adminExecPlaybook({ teams: [real.name] });
      const impostor = await one('insert into teams (name) values ($1) returning id', [real.name]);
      await server.pool.query('insert into team_members (team_id, person_id) values ($1, $2)', [impostor, people.viewer]);
      const runId = await requestRun(playbook, 'editor');
      expect((await approve(playbook, runId, 'viewer')).status).toBe(403);
      expect(await statusOf(runId)).toBe('waiting');
    });

    it('makes a spec that names a team name two teams share a coded 400 at save, whoever writes it', async () => {
      const name = `Twins ${randomUUID().slice(0, 8)}`;
      await one('insert into teams (name) values ($1), ($1) returning id', [name]);
      const spec = { approval: { approvers: { teams: [name] } }, actions: [{ name: 'ping', http: { url: 'http://127.0.0.1:9/ping' } }] };
      for (const role of ['admin', 'editor'] as const) {
        const saved = await server.call('POST', '/api/db/playbooks', cookies[role], { name: `twins-${randomUUID().slice(0, 8)}`, spec });
        expect(saved.status, saved.text).toBe(400);
        expect(saved.json).toMatchObject({ code: 'OD_PLAYBOOK_APPROVER', details: 'spec.approval.approvers.teams' });
      }
      const unknown = await server.call('POST', '/api/db/playbooks', cookies.admin, {
        name: `nobody-${randomUUID().slice(0, 8)}`,
        spec: { ...spec, approval: { approvers: { people: ['nobody@opsdeck.local'] } } },
      });
      expect(unknown.status, unknown.text).toBe(400);
      expect(unknown.json).toMatchObject({ code: 'OD_PLAYBOOK_APPROVER', details: 'spec.approval.approvers.people' });
    });

    it('keeps the resolved ids when an editor renames the real team and gives its name to their own', async () => {
      const real = await adminTeam(['commander']);
      const playbook = await adminExecPlaybook({ teams: [real.name] });
      const own = await one('insert into teams (name) values ($1) returning id', [`Mine ${randomUUID().slice(0, 8)}`]);
      await server.pool.query('insert into team_members (team_id, person_id) values ($1, $2)', [own, people.viewer]);
      const renamedReal = await server.call('PATCH', `/api/db/teams?id=eq.${real.id}`, cookies.editor, { name: `${real.name} (old)` });
      expect(renamedReal.status, renamedReal.text).toBe(204);
      const renamedOwn = await server.call('PATCH', `/api/db/teams?id=eq.${own}`, cookies.editor, { name: real.name });
      expect(renamedOwn.status, renamedOwn.text).toBe(204);
      const sneaky = await server.call('PATCH', `/api/db/playbooks?id=eq.${playbook}`, cookies.editor, { approver_ids: { people: [people.viewer], teams: [own] } });
      expect(sneaky.status, sneaky.text).toBe(204);

      const runId = await requestRun(playbook, 'editor');
      expect((await approve(playbook, runId, 'viewer')).status).toBe(403);
      expect(await statusOf(runId)).toBe('waiting');
      expect((await approve(playbook, runId, 'commander')).status).toBe(200);
    });
  });

  describe('adding oneself to the real approver team', () => {
    it('is refused to an editor through /api/db/team_members, by POST, upsert and DELETE, and changes nothing', async () => {
      const real = await adminTeam(['commander']);
      const join = await server.call('POST', '/api/db/team_members', cookies.editor, [{ team_id: real.id, person_id: people.editor }]);
      expect(join.status, join.text).toBe(403);
      expect(join.json).toMatchObject({ code: '42501', details: "Writing 'team_members' needs write access to 'rbac'" });
      const upsert = await server.call('POST', '/api/db/team_members', cookies.editor, [{ team_id: real.id, person_id: people.editor }], {
        prefer: 'resolution=merge-duplicates',
      });
      expect(upsert.status, upsert.text).toBe(403);
      const evict = await server.call('DELETE', `/api/db/team_members?team_id=eq.${real.id}&person_id=eq.${people.commander}`, cookies.editor);
      expect(evict.status, evict.text).toBe(403);
      const members = await server.pool.query<{ person_id: string }>('select person_id from team_members where team_id = $1', [real.id]);
      expect(members.rows.map((row) => row.person_id)).toEqual([people.commander]);
    });

    it('still lets an admin manage members, and every role read them', async () => {
      const real = await adminTeam(['commander', 'responder']);
      const removed = await server.call('DELETE', `/api/db/team_members?team_id=eq.${real.id}&person_id=eq.${people.responder}`, cookies.admin);
      expect(removed.status, removed.text).toBe(204);
      for (const role of ROLES) {
        const read = await server.call('GET', `/api/db/team_members?team_id=eq.${real.id}&select=person_id`, cookies[role]);
        expect(read.json, role).toEqual([{ person_id: people.commander }]);
      }
    });
  });

  describe('approving one’s own run', () => {
    it('is refused with a coded 403 that says so, even to a member of the approver team and to a listed person', async () => {
      const real = await adminTeam(['editor', 'commander']);
      const playbook = await adminExecPlaybook({ people: ['editor@opsdeck.local'], teams: [real.id] });
      const runId = await requestRun(playbook, 'editor');
      const own = await approve(playbook, runId, 'editor');
      expect(own.status, own.text).toBe(403);
      expect(own.json).toMatchObject({ code: 'OD_PLAYBOOK_OWN_RUN' });
      expect(String(own.json.message)).toContain('nobody may approve their own run');
      expect(await statusOf(runId)).toBe('waiting');
      const approvals = await server.pool.query('select 1 from playbook_run_approvals where playbook_run_id = $1', [runId]);
      expect(approvals.rowCount).toBe(0);
      expect((await approve(playbook, runId, 'commander')).status).toBe(200);
    });
  });

  describe('a membership changed after the run was requested', () => {
    it('does not count: someone added to the approver team later cannot approve the earlier run, only later ones', async () => {
      const real = await adminTeam(['commander']);
      const playbook = await adminExecPlaybook({ teams: [real.id] });
      const earlier = await requestRun(playbook, 'editor');
      const added = await server.call('POST', '/api/db/team_members', cookies.admin, [{ team_id: real.id, person_id: people.responder }]);
      expect(added.status, added.text).toBe(201);

      const late = await approve(playbook, earlier, 'responder');
      expect(late.status, late.text).toBe(403);
      expect(late.json.code).toBe('OD_PLAYBOOK_NOT_APPROVER');
      expect(await statusOf(earlier)).toBe('waiting');

      const later = await requestRun(playbook, 'editor');
      expect((await approve(playbook, later, 'responder')).status).toBe(200);
    });

    it('does not count either when a member was removed since: they no longer approve the earlier run', async () => {
      const real = await adminTeam(['commander', 'responder']);
      const playbook = await adminExecPlaybook({ teams: [real.id] });
      const runId = await requestRun(playbook, 'editor');
      const removed = await server.call('DELETE', `/api/db/team_members?team_id=eq.${real.id}&person_id=eq.${people.responder}`, cookies.admin);
      expect(removed.status, removed.text).toBe(204);
      expect((await approve(playbook, runId, 'responder')).status).toBe(403);
      expect((await approve(playbook, runId, 'commander')).status).toBe(200);
    });
  });
});

/**
 * The approvals row of the role × resource × action matrix (packages/shared/src/roles.test.ts holds the role table):
 * approving is no role permission but being one of the run's approvers, so every role that reads runs approves a run
 * it is listed for and did not request; nobody approves their own, and the roles that may not request runs own none.
 */
const APPROVALS: Record<Role, { approvesOthersRun: boolean; requestsRuns: boolean }> = {
  admin: { approvesOthersRun: true, requestsRuns: true },
  editor: { approvesOthersRun: true, requestsRuns: true },
  commander: { approvesOthersRun: true, requestsRuns: false },
  responder: { approvesOthersRun: true, requestsRuns: false },
  viewer: { approvesOthersRun: true, requestsRuns: false },
};

describe('the approvals matrix', () => {
  let server: TestServer;
  const cookies = {} as Record<Role, string>;
  let playbook: string;

  beforeAll(async () => {
    server = await startTestServer();
    for (const role of ROLES) cookies[role] = await server.cookieFor(role);
    const saved = await server.call(
      'POST',
      '/api/db/playbooks',
      cookies.admin,
      {
        name: `matrix-${randomUUID().slice(0, 8)}`,
        spec: { approval: { approvers: { people: ROLES.map((role) => `${role}@opsdeck.local`) } }, actions: [{ name: 'ping', http: { url: 'http://127.0.0.1:9/ping' } }] },
      },
      RETURN_ROWS,
    );
    expect(saved.status, saved.text).toBe(201);
    playbook = String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
  });
  afterAll(async () => {
    await server.close();
  });

  async function run(requester: Role): Promise<{ status: number; runId: string }> {
    const reply = await server.call('POST', '/api/playbook/run', cookies[requester], { id: playbook });
    return { status: reply.status, runId: String(reply.json.run_id) };
  }

  for (const role of ROLES) {
    const expected = APPROVALS[role];
    it(`${expected.approvesOthersRun ? 'lets' : 'refuses'} ${role} approve a run someone else requested, when listed`, async () => {
      const { runId } = await run(role === 'admin' ? 'editor' : 'admin');
      const reply = await server.call('POST', `/api/playbook/run/approve/${playbook}/${runId}`, cookies[role]);
      expect(reply.status, reply.text).toBe(expected.approvesOthersRun ? 200 : 403);
    });

    it(`never lets ${role} approve a run of their own`, async () => {
      const requested = await run(role);
      expect(requested.status).toBe(expected.requestsRuns ? 201 : 403);
      if (!expected.requestsRuns) return;
      const reply = await server.call('POST', `/api/playbook/run/approve/${playbook}/${requested.runId}`, cookies[role]);
      expect(reply.status, reply.text).toBe(403);
      expect(reply.json.code).toBe('OD_PLAYBOOK_OWN_RUN');
    });
  }
});
