import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedStatusTargets, INCIDENT_STATUSES, RESPONDER_REQUIRED_FIELDS, RESPONDER_TYPES, type IncidentStatus } from '@opsdeck/shared';
import { startIncidentFixture, type IncidentFixture } from './fixtures/incidents/incident-fixture';

describe('incident rules enforced by the database', () => {
  let fx: IncidentFixture;

  beforeAll(async () => {
    fx = await startIncidentFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  async function incidentIn(status: IncidentStatus): Promise<string> {
    const result = await fx.server.pool.query<{ id: string }>(`insert into incidents (title, status) values ('transition', $1) returning id`, [status]);
    return result.rows[0]?.id ?? '';
  }

  it('keeps the SQL transition table and required responder fields equal to the shared ones', async () => {
    for (const from of INCIDENT_STATUSES) {
      const result = await fx.server.pool.query<{ targets: string[] }>('select incident_status_targets($1) as targets', [from]);
      expect(result.rows[0]?.targets).toEqual([...allowedStatusTargets(from)]);
    }
    for (const type of RESPONDER_TYPES.filter((t) => t !== 'person')) {
      const result = await fx.server.pool.query<{ fields: string[] }>('select responder_required_fields($1) as fields', [type]);
      expect(result.rows[0]?.fields).toEqual([...RESPONDER_REQUIRED_FIELDS[type]]);
    }
  });

  it('allows every move of the transition table through PATCH and refuses every other one with 400', async () => {
    const db = await fx.db('commander');
    for (const from of INCIDENT_STATUSES) {
      for (const to of INCIDENT_STATUSES) {
        const id = await incidentIn(from);
        const { error, status } = await db.from('incidents').update({ status: to }).eq('id', id).select('status');
        if (allowedStatusTargets(from).includes(to)) {
          expect({ from, to, status, error }).toEqual({ from, to, status: 200, error: null });
        } else {
          expect({ from, to, status }).toEqual({ from, to, status: 400 });
          expect(error?.message).toBe(`Incident status cannot change from ${from} to ${to}`);
          expect(error?.details).toBe(`From ${from} the status can change to: ${allowedStatusTargets(from).join(', ')}`);
        }
      }
    }
  });

  it('nests hypotheses root to factor to solution within one incident', async () => {
    const { pool } = fx.server;
    const incident = await incidentIn('open');
    const other = await incidentIn('open');
    const root = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, title, type) values ($1, 'r', 'root') returning id`, [incident]);
    const factor = await pool.query<{ id: string }>(
      `insert into hypotheses (incident_id, parent_id, title, type) values ($1, $2, 'f', 'factor') returning id`,
      [incident, root.rows[0]?.id],
    );
    await pool.query(`insert into hypotheses (incident_id, parent_id, title, type) values ($1, $2, 's', 'solution')`, [incident, factor.rows[0]?.id]);
    await expect(
      pool.query(`insert into hypotheses (incident_id, parent_id, title, type) values ($1, $2, 'x', 'solution')`, [incident, root.rows[0]?.id]),
    ).rejects.toThrow('A solution hypothesis cannot be a child of a root hypothesis');
    await expect(
      pool.query(`insert into hypotheses (incident_id, parent_id, title, type) values ($1, $2, 'x', 'factor')`, [other, root.rows[0]?.id]),
    ).rejects.toThrow('A hypothesis and its parent must belong to the same incident');
  });

  it('writes the changelog with the spec event names from triggers', async () => {
    const db = await fx.db('commander');
    const commander = await fx.personId('commander');
    const created = await db.from('incidents').insert({ title: 'Changelog', severity: 'low', type: 'availability', status: 'open', created_by: commander }).select('id').single();
    expect(created.error).toBeNull();
    const incidentId = (created.data as { id: string }).id;
    const hypothesis = await db.from('hypotheses').insert({ incident_id: incidentId, title: 'Root', type: 'root', status: 'possible', created_by: commander }).select('id').single();
    const hypothesisId = (hypothesis.data as { id: string }).id;
    await db.from('hypotheses').update({ status: 'likely' }).eq('id', hypothesisId);
    const evidence = await db.from('evidences').insert({ hypothesis_id: hypothesisId, type: 'comment', description: 'note', evidence: { comment: 'note' }, created_by: commander }).select('id').single();
    await db.from('evidences').update({ definition_of_done: true }).eq('id', (evidence.data as { id: string }).id);
    await db.from('comments').insert({ incident_id: incidentId, hypothesis_id: hypothesisId, comment: 'looking', created_by: commander });
    await db.from('responders').insert({ type: 'person', incident_id: incidentId, person_id: commander, created_by: commander });
    await db.from('incidents').update({ status: 'investigating' }).eq('id', incidentId);

    const history = await db.from('incident_histories').select('type,description,created_by').eq('incident_id', incidentId).order('created_at', { ascending: true });
    expect(history.error).toBeNull();
    const rows = history.data as Array<{ type: string; description: string | null; created_by: string | null }>;
    expect(rows.map((r) => r.type)).toEqual([
      'incident.created',
      'hypothesis.created',
      'hypothesis.status_updated',
      'evidence.created',
      'evidence.done_definition_added',
      'responder.commented',
      'responder.created',
      'incident.status_updated',
    ]);
    expect(rows[0]).toMatchObject({ description: 'Changelog', created_by: commander });
    expect(rows[2]?.description).toBe('Status changed from possible to likely');
    expect(rows[7]?.description).toBe('Status changed from open to investigating');
  });
});
