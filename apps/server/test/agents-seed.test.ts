import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENTS, seedAgentsDemo } from '../src/seed/agents';
import { startTestServer, type TestServer } from './harness';

interface SummaryRow {
  name: string;
  hostname: string | null;
  version: string | null;
  properties: Record<string, string>;
  last_seen: string | null;
  created_by: string | null;
  config_count: number;
  checks_count: number;
  config_scrapper_count: number;
}

describe('agent demo data', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists four offline agents with hostnames, versions, properties and the counts of what two of them created, one left for npm run demo:agent', async () => {
    const admin = await server.cookieFor('admin');
    const reply = await server.call('GET', '/api/db/agents_summary?order=name.asc', admin);
    expect(reply.status).toBe(200);
    const rows = reply.json as unknown as SummaryRow[];
    expect(rows.map((row) => row.name)).toEqual(['edge-eu-west', 'edge-us-east', 'lab-agent', 'local-demo']);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('edge-eu-west')).toMatchObject({ hostname: 'edge-eu-west-01.internal', version: 'v0.9.2', properties: { region: 'eu-west-1' }, checks_count: 3, config_count: 4, config_scrapper_count: 1 });
    expect(byName.get('edge-us-east')).toMatchObject({ checks_count: 2, config_count: 2, config_scrapper_count: 1 });
    expect(byName.get('lab-agent')).toMatchObject({ last_seen: null, checks_count: 0, config_count: 0, config_scrapper_count: 0 });
    // Its checks and scraper wait for the agent the demo's own command starts; nothing has come from it yet.
    expect(byName.get('local-demo')).toMatchObject({ last_seen: null, checks_count: 2, config_count: 0, config_scrapper_count: 1 });
    for (const row of rows) {
      expect(row.created_by).not.toBeNull();
      // Offline: nothing of the demo pushes, so no agent was seen within the last 61 seconds.
      if (row.last_seen !== null) expect(Date.now() - Date.parse(row.last_seen)).toBeGreaterThan(60 * 60 * 1000);
    }
  });

  it('gives the agents canaries whose checks carry the agent id and are never due on this server', async () => {
    const checks = await server.pool.query<{ agent: string; canary_agent: string | null; status: string | null; next_runtime: Date | null }>(
      `select a.name as agent, c.agent_id as canary_agent, k.status, k.next_runtime
         from checks k join agents a on a.id = k.agent_id join canaries c on c.id = k.canary_id
        where k.deleted_at is null`,
    );
    expect(checks.rows).toHaveLength(7);
    for (const check of checks.rows) {
      expect(check.canary_agent).not.toBeNull();
      // The local demo agent's have no status until it runs them.
      expect(check.status).toBe(check.agent === 'local-demo' ? null : 'healthy');
    }
    // The local scheduler's own condition for due checks: none of the agents' checks may match it.
    const due = await server.pool.query<{ n: number }>(
      'select count(*)::int as n from checks k where k.deleted_at is null and k.agent_id is null and k.canary_id in (select id from canaries where agent_id is not null)',
    );
    expect(due.rows[0]?.n).toBe(0);
    const scrapers = await server.pool.query<{ n: number }>('select count(*)::int as n from config_scrapers where agent_id is not null and deleted_at is null');
    expect(scrapers.rows[0]?.n).toBe(3);
  });

  it('seeds nothing twice', async () => {
    const client = await server.pool.connect();
    try {
      const admin = await client.query<{ id: string }>(`select id from people where email = 'admin@opsdeck.local'`);
      await seedAgentsDemo(client, { adminId: String(admin.rows[0]?.id) });
    } finally {
      client.release();
    }
    const count = await server.pool.query<{ n: number }>('select count(*)::int as n from agents where deleted_at is null');
    expect(count.rows[0]?.n).toBe(DEMO_AGENTS.length + 1);
  });
});
