import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaCacheFor } from '../src/data-api/data-api-plugin';
import { startTestServer, type TestServer } from './harness';

/**
 * Issue #9: a view inherits the foreign keys of the table columns it exposes, so the screens can embed through
 * notifications_summary, the _with_status views, config_detail and the incident and check views, in both directions.
 */

const ID = {
  gina: '00000000-0000-4000-8000-0000000000a1',
  hugo: '00000000-0000-4000-8000-0000000000a2',
  team: '00000000-0000-4000-8000-0000000000b1',
  notification: '00000000-0000-4000-8000-0000000000c1',
  agent: '00000000-0000-4000-8000-0000000000d1',
  canary: '00000000-0000-4000-8000-0000000000e1',
  check: '00000000-0000-4000-8000-0000000000e2',
  topology: '00000000-0000-4000-8000-0000000000f1',
  scraper: '00000000-0000-4000-8000-0000000000f2',
  backend: '00000000-0000-4000-8000-0000000000f3',
  component: '00000000-0000-4000-8000-0000000000f4',
  parentConfig: '00000000-0000-4000-8000-000000000101',
  config: '00000000-0000-4000-8000-000000000102',
  otherConfig: '00000000-0000-4000-8000-000000000103',
  incident: '00000000-0000-4000-8000-000000000201',
  hypothesis: '00000000-0000-4000-8000-000000000202',
} as const;

const FIXTURE_SQL = `
  insert into people (id, name, email) values ('${ID.gina}', 'Gina Embed', 'gina.embed@example.com'), ('${ID.hugo}', 'Hugo Embed', 'hugo.embed@example.com');
  insert into teams (id, name, created_by) values ('${ID.team}', 'Embedders', '${ID.hugo}');
  insert into notifications (id, name, events, person_id, team_id, created_by)
    values ('${ID.notification}', 'embed-alert', '{incident.created}', '${ID.gina}', '${ID.team}', '${ID.hugo}');
  insert into agents (id, name) values ('${ID.agent}', 'embed-agent');
  insert into canaries (id, name, agent_id, created_by) values ('${ID.canary}', 'embed-canary', '${ID.agent}', '${ID.gina}');
  insert into checks (id, canary_id, type, name) values ('${ID.check}', '${ID.canary}', 'http', 'embed-check');
  insert into topologies (id, name, agent_id, created_by) values ('${ID.topology}', 'embed-topology', '${ID.agent}', '${ID.gina}');
  insert into config_scrapers (id, name, created_by) values ('${ID.scraper}', 'embed-scraper', '${ID.hugo}');
  insert into logging_backends (id, name, agent_id) values ('${ID.backend}', 'embed-backend', '${ID.agent}');
  insert into components (id, topology_id, name) values ('${ID.component}', '${ID.topology}', 'embed-component');
  insert into config_items (id, type, config_class, name) values ('${ID.parentConfig}', 'Kubernetes::Namespace', 'Namespace', 'embed-parent');
  insert into config_items (id, type, config_class, name, parent_id, scraper_id)
    values ('${ID.config}', 'Kubernetes::Pod', 'Pod', 'embed-pod', '${ID.parentConfig}', '${ID.scraper}');
  insert into config_items (id, type, config_class, name) values ('${ID.otherConfig}', 'Kubernetes::Pod', 'Pod', 'embed-other-pod');
  insert into config_analysis (config_id, analyzer, analysis_type) values ('${ID.config}', 'embed-analyzer', 'security');
  insert into check_config_relationships (config_id, check_id) values ('${ID.config}', '${ID.check}'), ('${ID.otherConfig}', '${ID.check}');
  insert into check_component_relationships (component_id, check_id) values ('${ID.component}', '${ID.check}');
  insert into incidents (id, title, commander_id, created_by) values ('${ID.incident}', 'Embedding broke', '${ID.gina}', '${ID.hugo}');
  insert into hypotheses (id, incident_id, title) values ('${ID.hypothesis}', '${ID.incident}', 'A view lost its keys');
  insert into evidences (hypothesis_id, type, component_id) values ('${ID.hypothesis}', 'topology', '${ID.component}');
`;

describe('data API embedding through views', () => {
  let server: TestServer;
  let admin: string;
  let viewer: string;
  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(FIXTURE_SQL);
    admin = await server.cookieFor('admin');
    viewer = await server.cookieFor('viewer');
  });
  afterAll(async () => {
    await server.close();
  });

  async function get(path: string, cookie = admin): Promise<{ status: number; json: unknown }> {
    const reply = await server.call('GET', `/api/db/${path}`, cookie);
    return { status: reply.status, json: JSON.parse(reply.text === '' ? 'null' : reply.text) as unknown };
  }

  describe('notifications_summary', () => {
    it('embeds person, team and creator through the view, as the notifications page asks', async () => {
      const reply = await get(
        `notifications_summary?select=*,person:person_id(id,name),team:team_id(id,name),created_by(id,name)&id=eq.${ID.notification}`,
        viewer,
      );
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual([
        expect.objectContaining({
          name: 'embed-alert',
          pending: 0,
          person: { id: ID.gina, name: 'Gina Embed' },
          team: { id: ID.team, name: 'Embedders' },
          created_by: { id: ID.hugo, name: 'Hugo Embed' },
        }),
      ]);
    });

    it('picks one of two keys to the same table by constraint name, and answers 300 naming both without one', async () => {
      const picked = await get(`notifications_summary?select=id,owner:people!notifications_person_id_fkey(name)&id=eq.${ID.notification}`);
      expect(picked.json).toEqual([{ id: ID.notification, owner: { name: 'Gina Embed' } }]);
      const ambiguous = await get(`notifications_summary?select=id,people(name)&id=eq.${ID.notification}`);
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.json).toMatchObject({ code: 'PGRST201' });
      expect(JSON.stringify(ambiguous.json)).toContain('notifications_person_id_fkey');
      expect(JSON.stringify(ambiguous.json)).toContain('notifications_created_by_fkey');
    });

    it('lets a table embed the view through the table’s foreign key, as a list', async () => {
      const reply = await get(`people?select=name,notifications_summary!notifications_person_id_fkey(name,sent)&id=eq.${ID.gina}`);
      expect(reply.json).toEqual([{ name: 'Gina Embed', notifications_summary: [{ name: 'embed-alert', sent: 0 }] }]);
    });
  });

  describe('the _with_status views', () => {
    it('embeds the agent and creator of a canary through canaries_with_status', async () => {
      const reply = await get(`canaries_with_status?select=name,job_status,agent_id(name),created_by(name)&id=eq.${ID.canary}`, viewer);
      expect(reply.json).toEqual([{ name: 'embed-canary', job_status: null, agent_id: { name: 'embed-agent' }, created_by: { name: 'Gina Embed' } }]);
    });

    it('embeds through integrations_with_status, a UNION of three views, when every branch references the same table', async () => {
      const reply = await get(
        `integrations_with_status?select=name,integration_type,agent:agent_id(name),created_by(name)&name=like.embed-*&order=name`,
        viewer,
      );
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual([
        { name: 'embed-backend', integration_type: 'logging_backends', agent: { name: 'embed-agent' }, created_by: null },
        { name: 'embed-scraper', integration_type: 'scrapers', agent: null, created_by: { name: 'Hugo Embed' } },
        { name: 'embed-topology', integration_type: 'topologies', agent: { name: 'embed-agent' }, created_by: { name: 'Gina Embed' } },
      ]);
    });

    it('embeds a _with_status view from a table, view to view too', async () => {
      const fromTable = await get(`notifications?select=name,team:teams_with_status!notifications_team_id_fkey(name,job_status)&id=eq.${ID.notification}`);
      expect(fromTable.json).toEqual([{ name: 'embed-alert', team: { name: 'Embedders', job_status: null } }]);
      const fromView = await get(`notifications_summary?select=name,teams_with_status(name,created_by(name))&id=eq.${ID.notification}`);
      expect(fromView.json).toEqual([{ name: 'embed-alert', teams_with_status: { name: 'Embedders', created_by: { name: 'Hugo Embed' } } }]);
    });
  });

  describe('config_detail and the catalog views', () => {
    it('embeds the parent, scraper and insights of a config item through config_detail', async () => {
      const reply = await get(`config_detail?select=name,analysis,parent:parent_id(name),scraper_id(name),config_analysis(analyzer)&id=eq.${ID.config}`, viewer);
      expect(reply.json).toEqual([
        { name: 'embed-pod', analysis: 1, parent: { name: 'embed-parent' }, scraper_id: { name: 'embed-scraper' }, config_analysis: [{ analyzer: 'embed-analyzer' }] },
      ]);
    });

    it('embeds one catalog view in another by name', async () => {
      const reply = await get(`config_analysis_items?select=analyzer,configs(name,changes)&config_id=eq.${ID.config}`, viewer);
      expect(reply.json).toEqual([{ analyzer: 'embed-analyzer', configs: { name: 'embed-pod', changes: 0 } }]);
    });
  });

  describe('incident views', () => {
    it('embeds the commander and the hypotheses of an incident through incident_summary', async () => {
      const reply = await get(`incident_summary?select=title,commander:commander_id(name),hypotheses(title)&id=eq.${ID.incident}`, viewer);
      expect(reply.json).toEqual([{ title: 'Embedding broke', commander: { name: 'Gina Embed' }, hypotheses: [{ title: 'A view lost its keys' }] }]);
    });

    it('embeds the component and creator of incidents_by_component', async () => {
      const reply = await get(`incidents_by_component?select=title,component_id(name),created_by(name)&component_id=eq.${ID.component}`, viewer);
      expect(reply.json).toEqual([{ title: 'Embedding broke', component_id: { name: 'embed-component' }, created_by: { name: 'Hugo Embed' } }]);
    });
  });

  describe('check views', () => {
    it('embeds the canary and the component of checks_by_component', async () => {
      const reply = await get(`checks_by_component?select=name,canary:canary_id(name),component:component_id(name)&component_id=eq.${ID.component}`, viewer);
      expect(reply.json).toEqual([{ name: 'embed-check', canary: { name: 'embed-canary' }, component: { name: 'embed-component' } }]);
    });

    it('embeds the config of check_summary_for_config, and its checks from config_detail once told which key', async () => {
      const summary = await get(`check_summary_for_config?select=name,config_id(name)&config_id=eq.${ID.config}`, viewer);
      expect(summary.json).toEqual([{ name: 'embed-check', config_id: { name: 'embed-pod' } }]);
      const ambiguous = await get(`config_detail?select=name,check_summary_for_config(name)&id=eq.${ID.config}`, viewer);
      expect(ambiguous.status).toBe(300);
      const detail = await get(`config_detail?select=name,check_summary_for_config!check_config_relationships_config_id_fkey(name)&id=eq.${ID.config}`, viewer);
      expect(detail.json).toEqual([{ name: 'embed-pod', check_summary_for_config: [{ name: 'embed-check' }] }]);
    });

    it('answers one object for a to-one embed of a view that lists the key on two rows', async () => {
      const reply = await get(`check_component_relationships?select=component_id,check_summary_for_config(name)&check_id=eq.${ID.check}`, viewer);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual([{ component_id: ID.component, check_summary_for_config: { name: 'embed-check' } }]);
    });
  });

  describe('what a view does not inherit', () => {
    it('gives no relationship to a computed column, and follows plain columns through nested views', async () => {
      await server.pool.query(`
        create view g_notification_keys as select n.id, n.person_id::text as person_id, coalesce(n.team_id, n.team_id) as team_id from notifications n;
        create view g_notification_nested as select s.id, s.person_id as recipient_id from notifications_summary s;
      `);
      await schemaCacheFor(server.running.context.db)?.reload();
      const computed = await get(`g_notification_keys?select=id,person:person_id(name)&id=eq.${ID.notification}`);
      expect(computed.status).toBe(400);
      expect(computed.json).toMatchObject({ code: 'PGRST200' });
      const coalesced = await get(`g_notification_keys?select=id,teams(name)&id=eq.${ID.notification}`);
      expect(coalesced.json).toMatchObject({ code: 'PGRST200' });
      const nested = await get(`g_notification_nested?select=recipient:recipient_id(name)&id=eq.${ID.notification}`);
      expect(nested.json).toEqual([{ recipient: { name: 'Gina Embed' } }]);
    });
  });

  describe('permissions', () => {
    it('checks every relation an embed through a view touches, and identity tables stay unreachable', async () => {
      const roles = await get(`people_roles?select=id,person_roles(role)&id=eq.${ID.gina}`, viewer);
      expect(roles.status).toBe(403);
      expect(roles.json).toMatchObject({ code: '42501', message: 'permission denied for table person_roles' });
      const identities = await get(`people_roles?select=id,identities(id)&id=eq.${ID.gina}`, viewer);
      expect(identities.status).toBe(403);
      const sessions = await get(`people_roles?select=id,identities(id,sessions(id))&id=eq.${ID.gina}`, admin);
      expect(sessions.status).toBe(403);
      expect(sessions.json).toMatchObject({ code: '42501', message: 'permission denied for table sessions' });
    });
  });
});
