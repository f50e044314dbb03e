import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPostmortem, type PostmortemData } from '../src/modules/incidents/postmortem';
import { escapeMarkdown } from '../src/modules/incidents/markdown';
import { startIncidentFixture, type IncidentFixture } from './fixtures/incidents/incident-fixture';

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('incident routes', () => {
  let fx: IncidentFixture;

  beforeAll(async () => {
    fx = await startIncidentFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  describe('POST /api/resources/search', () => {
    beforeAll(async () => {
      const { pool } = fx.server;
      const canary = await pool.query<{ id: string }>(`insert into canaries (name) values ('search') returning id`);
      await pool.query(
        `insert into checks (canary_id, type, name, status, icon) values ($1, 'http', 'zeta-api', 'healthy', 'http'), ($1, 'http', 'zeta-gone', 'healthy', null)`,
        [canary.rows[0]?.id],
      );
      await pool.query(`update checks set deleted_at = now() where name = 'zeta-gone'`);
      const topology = await pool.query<{ id: string }>(`insert into topologies (name) values ('search') returning id`);
      await pool.query(`insert into components (topology_id, name, type, status) values ($1, 'zeta-frontend', 'service', 'healthy')`, [topology.rows[0]?.id]);
      await pool.query(`insert into config_items (type, config_class, name, health) values ('Kubernetes::Pod', 'Kubernetes', 'zeta-pod', 'warning'), ('Kubernetes::Pod', 'Kubernetes', 'zeta_100%', 'healthy')`);
      for (let i = 0; i < 60; i += 1) {
        await pool.query(`insert into config_items (type, config_class, name) values ('AWS::EC2::Instance', 'AWS', $1)`, [`omega-${String(i).padStart(2, '0')}`]);
      }
    });

    it('finds checks, components and configs by name and leaves out deleted rows', async () => {
      const response = await fx.request('viewer', '/api/resources/search', json({ checks: [{ search: 'zeta' }], components: [{ search: 'ZETA' }], configs: [{ search: 'zeta' }] }));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { checks: Array<Record<string, unknown>>; components: Array<Record<string, unknown>>; configs: Array<Record<string, unknown>> };
      expect(body.checks).toEqual([{ id: expect.any(String), name: 'zeta-api', icon: 'http', type: 'http', status: 'healthy', namespace: null, canary_id: expect.any(String) }]);
      expect(body.components.map((c) => c.name)).toEqual(['zeta-frontend']);
      expect(body.configs.map((c) => c.name)).toEqual(['zeta-pod', 'zeta_100%']);
      expect(body.configs[0]).toMatchObject({ type: 'Kubernetes::Pod', config_class: 'Kubernetes', health: 'warning' });
    });

    it('matches % and _ literally, returns only the kinds asked for, and caps each list at 50', async () => {
      const literal = (await (await fx.request('viewer', '/api/resources/search', json({ configs: [{ search: '_100%' }] }))).json()) as { configs: Array<{ name: string }>; checks: unknown[] };
      expect(literal.configs.map((c) => c.name)).toEqual(['zeta_100%']);
      expect(literal.checks).toEqual([]);
      const capped = (await (await fx.request('viewer', '/api/resources/search', json({ configs: [{ search: 'omega' }] }))).json()) as { configs: Array<{ name: string }> };
      expect(capped.configs).toHaveLength(50);
      expect(capped.configs[0]?.name).toBe('omega-00');
    });

    it('refuses anonymous callers and malformed bodies', async () => {
      expect((await fx.request(null, '/api/resources/search', json({}))).status).toBe(401);
      expect((await fx.request('viewer', '/api/resources/search', json({ checks: 'zeta' }))).status).toBe(400);
    });
  });

  describe('GET /api/incidents/{id}/postmortem', () => {
    let incidentId: string;
    let displayId: string;

    beforeAll(async () => {
      const { pool } = fx.server;
      const commander = await fx.personId('commander');
      const incident = await pool.query<{ id: string; incident_id: string }>(
        `insert into incidents (title, description, severity, type, status, created_by, commander_id, created_at)
         values ('Checkout *down* | [eu]', 'Payments failed', 'critical', 'availability', 'open', $1, $1, now() - interval '3 hours') returning id, incident_id`,
        [commander],
      );
      incidentId = incident.rows[0]?.id ?? '';
      displayId = incident.rows[0]?.incident_id ?? '';
      const root = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, title, status, created_by) values ($1, 'Payment provider outage', 'proven', $2) returning id`, [incidentId, commander]);
      const factor = await pool.query<{ id: string }>(`insert into hypotheses (incident_id, parent_id, type, title, status) values ($1, $2, 'factor', 'Retries exhausted', 'likely') returning id`, [
        incidentId,
        root.rows[0]?.id,
      ]);
      await pool.query(`insert into hypotheses (incident_id, parent_id, type, title, status) values ($1, $2, 'solution', 'Raise retry budget', 'possible')`, [incidentId, factor.rows[0]?.id]);
      const canary = await pool.query<{ id: string }>(`insert into canaries (name) values ('pm') returning id`);
      const check = await pool.query<{ id: string }>(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'payments-api', 'healthy') returning id`, [canary.rows[0]?.id]);
      await pool.query(
        `insert into evidences (hypothesis_id, type, description, check_id, definition_of_done, done, created_at) values ($1, 'check', 'Payments API healthy', $2, true, true, now() - interval '2 hours')`,
        [root.rows[0]?.id, check.rows[0]?.id],
      );
      await pool.query(
        `insert into evidences (hypothesis_id, type, description, evidence, definition_of_done, created_at) values ($1, 'comment', 'Provider confirms fix', '{"comment": "Provider confirms fix"}', true, now() - interval '90 minutes')`,
        [factor.rows[0]?.id],
      );
      await pool.query(`insert into comments (incident_id, hypothesis_id, comment, created_by, created_at) values ($1, $2, $3, $4, now() - interval '100 minutes')`, [
        incidentId,
        root.rows[0]?.id,
        `@[Rey Responder](user:${await fx.personId('responder')}) retry *now*`,
        commander,
      ]);
      const team = await pool.query<{ id: string }>(`insert into teams (name) values ('Payments') returning id`);
      await pool.query(
        `insert into responders (incident_id, type, team_id, external_id, properties) values ($1, 'system', $2, 'OPS-42', '{"responderType":"jira","project":"OPS","issueType":"Bug","priority":"High","summary":"s","description":"d","instance":"jira","link":"https://jira.example.com/browse/OPS-42"}')`,
        [incidentId, team.rows[0]?.id],
      );
      await pool.query(`update incidents set status = 'resolved' where id = $1`, [incidentId]);
    });

    it('downloads a Markdown attachment named after the display id', async () => {
      const response = await fx.request('viewer', `/api/incidents/${incidentId}/postmortem`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${displayId}-postmortem.md"`);
      const byDisplayId = await fx.request('viewer', `/api/incidents/${displayId}/postmortem`);
      expect(await byDisplayId.text()).toBe(await response.text());
    });

    it('holds the summary, timeline in time order, hypothesis tree, evidence, definition of done and responders', async () => {
      const markdown = await (await fx.request('viewer', `/api/incidents/${incidentId}/postmortem`)).text();
      expect(markdown).toContain(`# ${displayId}: Checkout \\*down\\* \\| \\[eu\\]`);
      expect(markdown).toContain('| Severity | critical |');
      expect(markdown).toContain('| Status | resolved |');
      expect(markdown).toContain('| Commander | Cora Commander |');
      expect(markdown).toMatch(/\| Duration \| 3h \dm \|/);
      const timeline = markdown.slice(markdown.indexOf('## Timeline'), markdown.indexOf('## Hypotheses'));
      const order = ['**Incident created**', '**Hypothesis created**', '**Evidence added**', '**Comment**', '**Added to the definition of done**', '**Responder added**', '**Status updated**'];
      const positions = ['**Incident created**', '**Comment**', '**Status updated**'].map((label) => timeline.indexOf(label));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      for (const label of order) expect(timeline).toContain(label);
      expect(timeline).toContain('@Rey Responder retry \\*now\\*');
      expect(timeline).toContain('Status changed from open to resolved');
      expect(markdown).toContain(
        ['- **Payment provider outage** (root, proven)', '  - **Retries exhausted** (factor, likely)', '    - **Raise retry budget** (solution, possible)'].join('\n'),
      );
      expect(markdown).toContain('### Payment provider outage');
      expect(markdown).toMatch(/- \[check\] — Payments API healthy — \[payments\\-api\]\(\/health\?checkId=[0-9a-f-]+\) \(healthy\)/);
      expect(markdown).toContain('1 of 2 done.');
      expect(markdown).toContain('- [x] [check] — Payments API healthy');
      expect(markdown).toContain('automatic: `status == healthy && age > duration("5m")`');
      expect(markdown).toContain('- [ ] [comment] — Provider confirms fix — manual');
      expect(markdown).toContain('| Payments | jira | [OPS\\-42](https://jira.example.com/browse/OPS-42) | Created |');
    });

    it('answers 404 for an unknown incident and 401 without a session', async () => {
      expect((await fx.request('viewer', '/api/incidents/00000000-0000-0000-0000-000000000000/postmortem')).status).toBe(404);
      expect((await fx.request('viewer', '/api/incidents/INC-999999999/postmortem')).status).toBe(404);
      expect((await fx.request(null, `/api/incidents/${incidentId}/postmortem`)).status).toBe(401);
    });
  });

  describe('postmortem rendering', () => {
    it('escapes Markdown in user text and keeps it on one line', () => {
      expect(escapeMarkdown('a *b* _c_ [d](e) # f | g\nh <i>')).toBe('a \\*b\\* \\_c\\_ \\[d\\]\\(e\\) \\# f \\| g h \\<i\\>');
    });

    it('marks an open incident as ongoing and says when there is nothing to report', () => {
      const data: PostmortemData = {
        incident: {
          id: 'x',
          incident_id: 'INC-1',
          title: 'Quiet',
          description: null,
          type: 'cost',
          severity: null,
          status: 'open',
          created_at: '2024-01-01T00:00:00Z',
          commander: null,
          communicator: null,
          created_by_name: null,
          ended_at: null,
        },
        history: [],
        comments: [],
        hypotheses: [],
        evidences: [],
        responders: [],
      };
      const markdown = renderPostmortem(data, new Date('2024-01-02T01:30:00Z'));
      expect(markdown).toContain('| Duration | 1d 1h 30m (ongoing) |');
      expect(markdown).toContain('No changelog found');
      expect(markdown).toContain('There are no evidences provided for this incident');
      expect(markdown).toContain('No definition of done was set.');
    });
  });
});
