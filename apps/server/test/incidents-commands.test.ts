import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@opsdeck/shared';
import { startIncidentFixture, type IncidentFixture } from './fixtures/incidents/incident-fixture';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** The incident commands of ADR 0045: each one transaction, so a failing write leaves nothing half done. */
describe('incident commands', () => {
  let fx: IncidentFixture;
  let responder: string;
  let configId: string;

  const send = async (role: Role | null, method: string, path: string, body?: unknown): Promise<Reply> => {
    const init: RequestInit = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const response = await fx.request(role, path, init);
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  };

  const count = async (sql: string, values: unknown[]): Promise<number> => {
    const result = await fx.server.pool.query<{ n: number }>(`select count(*)::int as n from ${sql}`, values);
    return result.rows[0]?.n ?? 0;
  };

  /** A test-only trigger that refuses one kind of write to a table for rows carrying the marker text. */
  const refuse = async (name: string, timing: string, table: string, condition: string): Promise<void> => {
    await fx.server.pool.query(
      `create or replace function ${name}() returns trigger language plpgsql as $$
       begin
         if ${condition} then raise exception 'refused by test trigger'; end if;
         return coalesce(new, old);
       end $$`,
    );
    await fx.server.pool.query(`create trigger ${name} ${timing} on ${table} for each row execute function ${name}()`);
  };

  const newIncident = (title: string, extra: Record<string, unknown> = {}) => ({ title, description: '', type: 'availability', severity: 'low', status: 'open', ...extra });

  beforeAll(async () => {
    fx = await startIncidentFixture();
    responder = await fx.personId('responder');
    const config = await fx.server.pool.query<{ id: string }>(`insert into config_items (type, config_class, name) values ('Kubernetes::Pod', 'Kubernetes', 'cmd-pod') returning id`);
    configId = config.rows[0]?.id ?? '';
    await refuse('test_refuse_hypothesis', 'before insert', 'hypotheses', `new.title = 'refuse the hypothesis'`);
    await refuse('test_refuse_evidence', 'before insert', 'evidences', `new.description = 'refuse the evidence'`);
    await refuse(
      'test_refuse_evidence_delete',
      'before delete',
      'evidences',
      `exists (select 1 from hypotheses h where h.id = old.hypothesis_id and h.title = 'keep my evidence')`,
    );
  });
  afterAll(async () => {
    await fx.close();
  });

  describe('POST /api/incidents', () => {
    it('creates the incident with a root hypothesis of the same title and the evidence it was opened from', async () => {
      const reply = await send(
        'responder',
        'POST',
        '/api/incidents',
        newIncident('  Checkout pods restart  ', {
          description: ' crash loop ',
          severity: 'high',
          evidence: { type: 'config', config_id: configId, description: 'cmd-pod', evidence: { lines: [], selected_lines: [] } },
        }),
      );
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ id: expect.any(String), incident_id: expect.stringMatching(/^INC-\d+$/), root_hypothesis_id: expect.any(String), evidence_id: expect.any(String) });
      const incident = await fx.server.pool.query(
        `select title, description, severity, severity_rank, status, created_by, commander_id, communicator_id from incidents where id = $1`,
        [reply.body.id],
      );
      expect(incident.rows[0]).toEqual({
        title: 'Checkout pods restart',
        description: 'crash loop',
        severity: 'high',
        severity_rank: 5,
        status: 'open',
        created_by: responder,
        commander_id: responder,
        communicator_id: responder,
      });
      const root = await fx.server.pool.query(`select id, title, type, status, parent_id, created_by from hypotheses where incident_id = $1`, [reply.body.id]);
      expect(root.rows).toEqual([{ id: reply.body.root_hypothesis_id, title: 'Checkout pods restart', type: 'root', status: 'possible', parent_id: null, created_by: responder }]);
      const evidence = await fx.server.pool.query(`select hypothesis_id, type, config_id, description, evidence, created_by from evidences where id = $1`, [reply.body.evidence_id]);
      expect(evidence.rows).toEqual([
        { hypothesis_id: reply.body.root_hypothesis_id, type: 'config', config_id: configId, description: 'cmd-pod', evidence: { lines: [], selected_lines: [] }, created_by: responder },
      ]);
      const history = await fx.server.pool.query<{ type: string; created_by: string }>(`select type, created_by from incident_histories where incident_id = $1 order by type`, [reply.body.id]);
      expect(history.rows).toEqual([
        { type: 'evidence.created', created_by: responder },
        { type: 'hypothesis.created', created_by: responder },
        { type: 'incident.created', created_by: responder },
      ]);
    });

    it('creates an incident without evidence and stores a blank description as none', async () => {
      const reply = await send('commander', 'POST', '/api/incidents', newIncident('No evidence yet', { description: '   ' }));
      expect(reply.status).toBe(201);
      expect(reply.body.evidence_id).toBeNull();
      expect(await count(`incidents where id = $1 and description is null`, [reply.body.id])).toBe(1);
      expect(await count(`evidences e join hypotheses h on h.id = e.hypothesis_id where h.incident_id = $1`, [reply.body.id])).toBe(0);
    });

    it('leaves no incident behind when its root hypothesis cannot be written', async () => {
      const reply = await send('responder', 'POST', '/api/incidents', newIncident('refuse the hypothesis'));
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(await count(`incidents where title = $1`, ['refuse the hypothesis'])).toBe(0);
    });

    it('leaves no incident or hypothesis behind when the evidence is refused', async () => {
      const title = `Refused evidence ${randomUUID()}`;
      const reply = await send('responder', 'POST', '/api/incidents', newIncident(title, { evidence: { type: 'config', config_id: configId, description: 'refuse the evidence' } }));
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(await count(`incidents where title = $1`, [title])).toBe(0);
      expect(await count(`hypotheses where title = $1`, [title])).toBe(0);
    });

    it('answers 400 and leaves nothing behind when the evidence names a config that does not exist', async () => {
      const title = `Missing config ${randomUUID()}`;
      const reply = await send('responder', 'POST', '/api/incidents', newIncident(title, { evidence: { type: 'config', config_id: randomUUID() } }));
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe('OD_INVALID_VALUE');
      expect(await count(`incidents where title = $1`, [title])).toBe(0);
    });

    it('refuses viewers and anonymous callers', async () => {
      expect((await send('viewer', 'POST', '/api/incidents', newIncident('Viewer incident'))).status).toBe(403);
      expect((await send(null, 'POST', '/api/incidents', newIncident('Anonymous incident'))).status).toBe(401);
      expect(await count(`incidents where title in ('Viewer incident', 'Anonymous incident')`, [])).toBe(0);
    });

    it('answers 400 with a code for a blank title, an unknown severity or an unknown field', async () => {
      for (const body of [newIncident('   '), newIncident('Odd', { severity: 'apocalyptic' }), newIncident('Odd', { owner: 'me' }), newIncident('Odd', { evidence: { type: 'rumour' } })]) {
        const reply = await send('responder', 'POST', '/api/incidents', body);
        expect(reply.status).toBe(400);
        expect(reply.body.code).toEqual(expect.any(String));
      }
      expect(await count(`incidents where title = 'Odd'`, [])).toBe(0);
    });
  });

  describe('POST /api/incidents/{id}/evidence', () => {
    let incidentId: string;
    let rootId: string;

    beforeAll(async () => {
      const reply = await send('responder', 'POST', '/api/incidents', newIncident('Link target'));
      incidentId = String(reply.body.id);
      rootId = String(reply.body.root_hypothesis_id);
    });

    it('attaches the evidence to an existing hypothesis of the incident', async () => {
      const reply = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, {
        hypothesis_id: rootId,
        evidence: { type: 'config', config_id: configId, description: 'pod restarts' },
      });
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ id: expect.any(String), hypothesis_id: rootId, incident: { id: incidentId, incident_id: expect.stringMatching(/^INC-/) } });
      expect(await count(`evidences where id = $1 and hypothesis_id = $2 and created_by = $3`, [reply.body.id, rootId, responder])).toBe(1);
    });

    it('creates the new hypothesis under the root, then attaches the evidence to it', async () => {
      const reply = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, {
        hypothesis_title: ' Memory leak ',
        evidence: { type: 'comment', description: 'heap grows', evidence: { comment: 'heap grows' } },
      });
      expect(reply.status).toBe(201);
      const created = await fx.server.pool.query(`select title, type, parent_id, status from hypotheses where id = $1`, [reply.body.hypothesis_id]);
      expect(created.rows).toEqual([{ title: 'Memory leak', type: 'factor', parent_id: rootId, status: 'possible' }]);
    });

    it('leaves no new hypothesis behind when the evidence is refused', async () => {
      const reply = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, {
        hypothesis_title: 'Orphan to be',
        evidence: { type: 'comment', description: 'refuse the evidence' },
      });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(await count(`hypotheses where title = 'Orphan to be'`, [])).toBe(0);
    });

    it('answers 404 for an unknown incident or a hypothesis of another incident', async () => {
      const other = await send('responder', 'POST', '/api/incidents', newIncident('Another incident'));
      const unknownIncident = await send('responder', 'POST', `/api/incidents/${randomUUID()}/evidence`, { hypothesis_title: 'x', evidence: { type: 'comment' } });
      expect(unknownIncident.status).toBe(404);
      const foreign = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, { hypothesis_id: other.body.root_hypothesis_id, evidence: { type: 'comment' } });
      expect(foreign.status).toBe(404);
      expect(await count(`hypotheses where title = 'x'`, [])).toBe(0);
    });

    it('answers 400 unless exactly one of hypothesis_id and hypothesis_title is given', async () => {
      const neither = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, { evidence: { type: 'comment' } });
      const both = await send('responder', 'POST', `/api/incidents/${incidentId}/evidence`, { hypothesis_id: rootId, hypothesis_title: 'x', evidence: { type: 'comment' } });
      const badId = await send('responder', 'POST', '/api/incidents/not-a-uuid/evidence', { hypothesis_id: rootId, evidence: { type: 'comment' } });
      expect([neither.status, both.status, badId.status]).toEqual([400, 400, 400]);
    });

    it('refuses viewers', async () => {
      const reply = await send('viewer', 'POST', `/api/incidents/${incidentId}/evidence`, { hypothesis_id: rootId, evidence: { type: 'comment', description: 'viewer evidence' } });
      expect(reply.status).toBe(403);
      expect(await count(`evidences where description = 'viewer evidence'`, [])).toBe(0);
    });
  });

  describe('DELETE /api/hypotheses/{id}', () => {
    /** An incident with root → factor → solution, each with one evidence and one comment. */
    const branch = async (factorTitle: string) => {
      const created = await send('responder', 'POST', '/api/incidents', newIncident(`Branch ${factorTitle}`));
      const incidentId = String(created.body.id);
      const rootId = String(created.body.root_hypothesis_id);
      const { pool } = fx.server;
      const factor = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, parent_id, type, title) values ($1, $2, 'factor', $3) returning id`, [incidentId, rootId, factorTitle]);
      const factorId = factor.rows[0]?.id ?? '';
      const solution = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, parent_id, type, title) values ($1, $2, 'solution', 'Fix it') returning id`, [incidentId, factorId]);
      const solutionId = solution.rows[0]?.id ?? '';
      for (const hypothesisId of [rootId, factorId, solutionId]) {
        await pool.query(`insert into evidences (hypothesis_id, type, description) values ($1, 'comment', 'seen')`, [hypothesisId]);
        await pool.query(`insert into comments (incident_id, hypothesis_id, comment) values ($1, $2, 'noted')`, [incidentId, hypothesisId]);
      }
      return { incidentId, rootId, factorId, solutionId };
    };

    it('deletes the hypothesis and those beneath it with their comments and evidence, and nothing else', async () => {
      const tree = await branch('Disk full');
      const reply = await send('responder', 'DELETE', `/api/hypotheses/${tree.factorId}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ hypotheses: 2, evidences: 2, comments: 2 });
      expect(await count(`hypotheses where incident_id = $1`, [tree.incidentId])).toBe(1);
      expect(await count(`evidences where hypothesis_id = $1`, [tree.rootId])).toBe(1);
      expect(await count(`comments where incident_id = $1`, [tree.incidentId])).toBe(1);
    });

    it('deletes nothing when the evidence cannot be deleted', async () => {
      const tree = await branch('keep my evidence');
      const reply = await send('responder', 'DELETE', `/api/hypotheses/${tree.factorId}`);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(await count(`hypotheses where incident_id = $1`, [tree.incidentId])).toBe(3);
      expect(await count(`comments where incident_id = $1`, [tree.incidentId])).toBe(3);
      expect(await count(`evidences e join hypotheses h on h.id = e.hypothesis_id where h.incident_id = $1`, [tree.incidentId])).toBe(3);
    });

    it('refuses viewers, answers 404 for an unknown hypothesis and 400 for a malformed id', async () => {
      const tree = await branch('Viewer target');
      expect((await send('viewer', 'DELETE', `/api/hypotheses/${tree.factorId}`)).status).toBe(403);
      expect(await count(`hypotheses where incident_id = $1`, [tree.incidentId])).toBe(3);
      expect((await send('responder', 'DELETE', `/api/hypotheses/${randomUUID()}`)).status).toBe(404);
      expect((await send('responder', 'DELETE', '/api/hypotheses/42')).status).toBe(400);
    });
  });

  it('documents the commands with their request and response schemas in /api/openapi.json', async () => {
    const spec = (await (await fx.request(null, '/api/openapi.json')).json()) as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> };
    expect(spec.paths['/api/incidents']?.post?.requestBody).toBeDefined();
    expect(spec.paths['/api/incidents']?.post?.responses['201']).toBeDefined();
    expect(spec.paths['/api/incidents/{id}/evidence']?.post?.requestBody).toBeDefined();
    expect(spec.paths['/api/incidents/{id}/evidence']?.post?.responses['201']).toBeDefined();
    expect(spec.paths['/api/hypotheses/{id}']?.delete?.responses['200']).toBeDefined();
  });
});
