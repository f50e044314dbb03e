import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_TYPES, parseMentions } from '@opsdeck/shared';
import { seedIncidentsDemo } from '../src/seed/incidents';
import { startTestServer, type TestServer } from './harness';

describe('incident demo data', () => {
  let server: TestServer;
  let before: Set<string>;
  let peopleByRole: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
    const people = await server.pool.query<{ id: string; email: string }>(`select id, email from people where email like '%@opsdeck.local'`);
    peopleByRole = Object.fromEntries(people.rows.map((p) => [p.email.split('@')[0] ?? '', p.id]));
    const teams = await server.pool.query<{ id: string }>(`select id from teams where deleted_at is null order by name`);
    before = new Set((await server.pool.query<{ id: string }>('select id from incidents')).rows.map((r) => r.id));
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      await seedIncidentsDemo(client, { peopleByRole, teamIds: teams.rows.map((t) => t.id) });
      await client.query('commit');
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await server.close();
  });

  async function seededIncidents(): Promise<Array<{ id: string; status: string }>> {
    const rows = (await server.pool.query<{ id: string; status: string }>('select id, status from incidents')).rows;
    return rows.filter((r) => !before.has(r.id));
  }

  it('creates incidents in several states', async () => {
    const statuses = new Set((await seededIncidents()).map((r) => r.status));
    expect([...statuses].sort()).toEqual(['closed', 'investigating', 'mitigated', 'new', 'open', 'resolved']);
  });

  it('creates evidence of all seven types, with automatic and manual definitions of done', async () => {
    const ids = (await seededIncidents()).map((r) => r.id);
    const evidence = await server.pool.query<{ type: string; definition_of_done: boolean; script: string | null }>(
      `select e.type, e.definition_of_done, e.script from evidences e join hypotheses h on h.id = e.hypothesis_id where h.incident_id = any ($1::uuid[])`,
      [ids],
    );
    expect(new Set(evidence.rows.map((e) => e.type))).toEqual(new Set(EVIDENCE_TYPES));
    expect(evidence.rows.some((e) => e.definition_of_done && e.type === 'comment')).toBe(true);
    expect(evidence.rows.some((e) => e.definition_of_done && e.type === 'check' && e.script === null)).toBe(true);
    expect(evidence.rows.some((e) => e.definition_of_done && e.script === 'status == healthy')).toBe(true);
  });

  it('nests hypotheses three levels deep', async () => {
    const ids = (await seededIncidents()).map((r) => r.id);
    const result = await server.pool.query<{ type: string }>(
      `select s.type from hypotheses s join hypotheses f on f.id = s.parent_id join hypotheses r on r.id = f.parent_id where s.incident_id = any ($1::uuid[])`,
      [ids],
    );
    expect(result.rows.map((r) => r.type)).toContain('solution');
  });

  it('writes comments that mention people by name and id', async () => {
    const ids = (await seededIncidents()).map((r) => r.id);
    const comments = await server.pool.query<{ comment: string }>('select comment from comments where incident_id = any ($1::uuid[])', [ids]);
    const mentions = comments.rows.flatMap((c) => parseMentions(c.comment));
    expect(mentions).toContainEqual({ name: 'Rey Responder', id: peopleByRole.responder });
  });

  it('adds responders of several types without leaving notifications to send', async () => {
    const ids = (await seededIncidents()).map((r) => r.id);
    const responders = await server.pool.query<{ kind: string; external_id: string | null }>(
      `select coalesce(properties ->> 'responderType', type) as kind, external_id from responders where incident_id = any ($1::uuid[])`,
      [ids],
    );
    expect(new Set(responders.rows.map((r) => r.kind)).size).toBeGreaterThanOrEqual(4);
    expect(responders.rows.find((r) => r.kind === 'jira')?.external_id).toBe('OPS-101');
    const pending = await server.pool.query(`select 1 from event_queue where name = 'responder.created'`);
    expect(pending.rowCount).toBe(0);
  });

  it('leaves a changelog written by the triggers with the acting person', async () => {
    const ids = (await seededIncidents()).map((r) => r.id);
    const history = await server.pool.query<{ type: string; created_by: string | null }>(
      'select type, created_by from incident_histories where incident_id = any ($1::uuid[])',
      [ids],
    );
    const types = new Set(history.rows.map((h) => h.type));
    for (const type of ['incident.created', 'incident.status_updated', 'hypothesis.created', 'hypothesis.status_updated', 'evidence.created', 'evidence.done_definition_added', 'responder.created', 'responder.commented']) {
      expect(types).toContain(type);
    }
    expect(history.rows.filter((h) => h.type === 'incident.status_updated').every((h) => h.created_by !== null)).toBe(true);
    const setting = await server.pool.query<{ value: string | null }>(`select current_setting('opsdeck.person_id', true) as value`);
    expect(setting.rows[0]?.value ?? '').toBe('');
  });
});
