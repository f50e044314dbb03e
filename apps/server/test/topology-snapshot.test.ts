import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { strFromU8, unzipSync } from 'fflate';
import { isWholeComponent, type TopologyComponent } from '@opsdeck/shared';
import { TOPOLOGY_BUILD_SETTING } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

interface Fixture {
  root: string;
  child: string;
  leaf: string;
  outsider: string;
  linked: string;
  deleted: string;
  check: string;
  outsiderCheck: string;
  config: string;
  incident: string;
  oldIncident: string;
}

interface CheckEntry {
  id: string;
  components: string[];
  statuses: Array<{ time: string; status: boolean; duration: number | null; message: string | null; error: string | null }>;
}

interface ConfigEntry {
  id: string;
  changes: Array<{ summary: string }>;
  insights: Array<{ analyzer: string }>;
}

interface IncidentEntry {
  id: string;
  components: string[];
}

interface Snapshot {
  status: number;
  disposition: string | null;
  contentType: string | null;
  files: Record<string, string>;
}

async function one(client: pg.PoolClient, sql: string, values: unknown[] = []): Promise<string> {
  const result = await client.query<{ id: string }>(sql, values);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`no id from ${sql}`);
  return id;
}

async function seed(pool: pg.Pool): Promise<Fixture> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config($1, 'on', true)`, [TOPOLOGY_BUILD_SETTING]);
    const topology = await one(client, `insert into topologies (name) values ('Shop "east"/α') returning id`);
    const other = await one(client, `insert into topologies (name) values ('Elsewhere') returning id`);
    const component = (topologyId: string, parent: string | null, name: string, deleted = false): Promise<string> =>
      one(client, `insert into components (topology_id, parent_id, name, status, deleted_at) values ($1, $2, $3, 'healthy', case when $4 then now() end) returning id`, [
        topologyId,
        parent,
        name,
        deleted,
      ]);
    const root = await component(topology, null, 'shop');
    const child = await component(topology, root, 'checkout');
    const leaf = await component(topology, child, 'checkout-pod');
    const deleted = await component(topology, child, 'old-pod', true);
    const outsider = await component(topology, null, 'unrelated-root');
    const linked = await component(other, null, 'payments-gateway');
    await client.query(`insert into component_relationships (component_id, relationship_id) values ($1, $2)`, [linked, child]);

    const canary = await one(client, `insert into canaries (name, spec) values ('snap', '{"http": [{"password": "hunter2"}]}') returning id`);
    const check = await one(
      client,
      `insert into checks (canary_id, type, name, status, spec) values ($1, 'http', 'checkout-http', 'healthy', '{"password": "hunter2"}') returning id`,
      [canary],
    );
    const outsiderCheck = await one(client, `insert into checks (canary_id, type, name, status) values ($1, 'http', 'gateway-http', 'healthy') returning id`, [
      canary,
    ]);
    await client.query(`insert into check_component_relationships (component_id, check_id, canary_id) values ($1, $2, $3)`, [leaf, check, canary]);
    await client.query(`insert into check_component_relationships (component_id, check_id, canary_id) values ($1, $2, $3)`, [linked, outsiderCheck, canary]);
    await client.query(
      `insert into check_statuses (check_id, time, status, duration, message, error) values
         ($1, now() - interval '10 minutes', true, 120, 'ok recent', null),
         ($1, now() - interval '50 minutes', false, 900, null, 'timeout'),
         ($1, now() - interval '3 hours', true, 100, 'ok old', null)`,
      [check],
    );

    const config = await one(client, `insert into config_items (type, config_class, name, config) values ('Kubernetes::Pod', 'Kubernetes', 'checkout-pod', '{"secret": "s3cr3t"}') returning id`);
    await client.query(`insert into config_component_relationships (component_id, config_id) values ($1, $2)`, [child, config]);
    await client.query(
      `insert into config_changes (config_id, change_type, summary, diff, created_at) values
         ($1, 'diff', 'recent change', '-a +b', now() - interval '5 minutes'),
         ($1, 'diff', 'old change', null, now() - interval '2 days')`,
      [config],
    );
    await client.query(
      `insert into config_analysis (config_id, analyzer, analysis_type, severity, summary, first_observed, last_observed) values
         ($1, 'fresh', 'security', 'high', 'fresh insight', now() - interval '1 day', now() - interval '20 minutes'),
         ($1, 'stale', 'cost', 'low', 'stale insight', now() - interval '5 days', now() - interval '4 days')`,
      [config],
    );

    const incidentWith = async (title: string, age: string, componentId: string): Promise<string> => {
      const incident = await one(client, `insert into incidents (title, created_at, updated_at) values ($1, now() - $2::interval, now() - $2::interval) returning id`, [
        title,
        age,
      ]);
      const hypothesis = await one(client, `insert into hypotheses (incident_id, title) values ($1, 'cause') returning id`, [incident]);
      await client.query(`insert into evidences (hypothesis_id, type, component_id) values ($1, 'topology', $2)`, [hypothesis, componentId]);
      return incident;
    };
    const incident = await incidentWith('checkout down', '30 minutes', leaf);
    const oldIncident = await incidentWith('checkout slow last week', '6 days', leaf);
    await client.query('commit');
    return { root, child, leaf, outsider, linked, deleted, check, outsiderCheck, config, incident, oldIncident };
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

describe('GET /api/snapshot/topology/:id', () => {
  let server: TestServer;
  let viewer: string;
  let fixture: Fixture;

  async function download(id: string, query = ''): Promise<Snapshot> {
    const response = await fetch(`${server.url}/api/snapshot/topology/${id}${query}`, { headers: { cookie: viewer } });
    const body = new Uint8Array(await response.arrayBuffer());
    const files: Record<string, string> = {};
    if (response.status === 200) for (const [name, bytes] of Object.entries(unzipSync(body))) files[name] = strFromU8(bytes);
    else files.error = strFromU8(body);
    return { status: response.status, disposition: response.headers.get('content-disposition'), contentType: response.headers.get('content-type'), files };
  }

  const json = <T>(snapshot: Snapshot, name: string): T => JSON.parse(snapshot.files[name] ?? 'null') as T;

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    fixture = await seed(server.pool);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a zip named after the topology with the README and four JSON files', async () => {
    const snapshot = await download(fixture.root);
    expect(snapshot.status).toBe(200);
    expect(snapshot.contentType).toBe('application/zip');
    expect(snapshot.disposition).toBe(`attachment; filename="Shop _east___-snapshot.zip"; filename*=UTF-8''${encodeURIComponent('Shop "east"/α-snapshot.zip')}`);
    expect(Object.keys(snapshot.files).sort()).toEqual(['README.md', 'checks.json', 'components.json', 'configs.json', 'incidents.json']);
    expect(snapshot.files['README.md']).toContain('# Snapshot of shop');
    expect(snapshot.files['README.md']).toContain('Related components: not included');
    expect(snapshot.files['README.md']).toContain('Check specs');
    expect(snapshot.files['checks.json']).toMatch(/^\[\n {2}\{/);
  });

  it('holds the component with its live subtree, nested', async () => {
    const components = json<{ component: TopologyComponent; related?: unknown }>(await download(fixture.root), 'components.json');
    expect(components.component.id).toBe(fixture.root);
    const children = components.component.components ?? [];
    expect(children.map((c) => c.name)).toEqual(['checkout']);
    // The snapshot keeps whole components at every depth, unlike the API's rows under the cards.
    expect(children.every(isWholeComponent)).toBe(true);
    const grandchildren = children.filter(isWholeComponent).flatMap((c) => c.components ?? []);
    expect(grandchildren.map((c) => c.name)).toEqual(['checkout-pod']);
    expect(grandchildren.every(isWholeComponent)).toBe(true);
    expect(components).not.toHaveProperty('related');
    const text = JSON.stringify(components);
    expect(text).not.toContain(fixture.deleted);
    expect(text).not.toContain(fixture.outsider);
  });

  it('keeps only the statuses of the range, newest first, and never the check spec', async () => {
    const checks = json<CheckEntry[]>(await download(fixture.root), 'checks.json');
    expect(checks.map((check) => check.id)).toEqual([fixture.check]);
    expect(checks[0]?.components).toEqual([fixture.leaf]);
    expect(checks[0]?.statuses.map((status) => [status.status, status.duration, status.message, status.error])).toEqual([
      [true, 120, 'ok recent', null],
      [false, 900, null, 'timeout'],
    ]);
    expect(checks[0]).not.toHaveProperty('spec');
    const wider = json<CheckEntry[]>(await download(fixture.root, '?start=6h'), 'checks.json');
    expect(wider[0]?.statuses).toHaveLength(3);
    const absolute = json<CheckEntry[]>(await download(fixture.root, `?start=${new Date(Date.now() - 20 * 60_000).toISOString()}`), 'checks.json');
    expect(absolute[0]?.statuses.map((status) => status.message)).toEqual(['ok recent']);
    const all = await download(fixture.root, '?start=1d');
    expect(Object.values(all.files).join('\n')).not.toContain('hunter2');
  });

  it('lists linked configs with their changes and insights of the range, without their content', async () => {
    const configs = json<ConfigEntry[]>(await download(fixture.root), 'configs.json');
    expect(configs.map((config) => config.id)).toEqual([fixture.config]);
    expect(configs[0]?.changes.map((change) => change.summary)).toEqual(['recent change']);
    expect(configs[0]?.insights.map((insight) => insight.analyzer)).toEqual(['fresh']);
    const week = json<ConfigEntry[]>(await download(fixture.root, '?start=7d'), 'configs.json');
    expect(week[0]?.changes.map((change) => change.summary)).toEqual(['recent change', 'old change']);
    expect(week[0]?.insights.map((insight) => insight.analyzer)).toEqual(['fresh', 'stale']);
    expect(JSON.stringify(week)).not.toContain('s3cr3t');
  });

  it('lists the incidents with evidence on the subtree created or updated in the range', async () => {
    const incidents = json<IncidentEntry[]>(await download(fixture.root), 'incidents.json');
    expect(incidents.map((incident) => incident.id)).toEqual([fixture.incident]);
    expect(incidents[0]?.components).toEqual([fixture.leaf]);
    const week = json<IncidentEntry[]>(await download(fixture.root, '?start=7d'), 'incidents.json');
    expect(week.map((incident) => incident.id)).toEqual([fixture.incident, fixture.oldIncident]);
  });

  it('adds the related components and their checks only when asked', async () => {
    const off = await download(fixture.root, '?related=false');
    expect(json<CheckEntry[]>(off, 'checks.json').map((check) => check.id)).toEqual([fixture.check]);
    const on = await download(fixture.root, '?related=true');
    const components = json<{ component: TopologyComponent; related: TopologyComponent[] }>(on, 'components.json');
    expect(components.related.map((component) => component.id)).toEqual([fixture.linked]);
    expect(json<CheckEntry[]>(on, 'checks.json').map((check) => check.id).sort()).toEqual([fixture.check, fixture.outsiderCheck].sort());
    expect(on.files['README.md']).toContain('Related components: included');
  });

  it('answers 404 for an unknown or deleted component', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', fixture.deleted]) {
      const snapshot = await download(id);
      expect(snapshot.status).toBe(404);
      expect(JSON.parse(snapshot.files.error ?? '{}')).toMatchObject({ code: 'OD404', message: 'Component not found' });
    }
  });

  it('refuses a bad start, related or id with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['?start=yesterday', '/start'],
      ['?start=31d', '/start'],
      ['?start=0h', '/start'],
      [`?start=${new Date(Date.now() + 3_600_000).toISOString()}`, '/start'],
      ['?related=maybe', '/related'],
    ] as const) {
      const snapshot = await download(fixture.root, query);
      expect(snapshot.status, query).toBe(400);
      expect(JSON.parse(snapshot.files.error ?? '{}')).toMatchObject({ code: 'OD_VALIDATION' });
      expect(snapshot.files.error).toContain(field);
    }
    expect((await download('not-a-uuid')).status).toBe(400);
  });

  it('needs a session', async () => {
    const response = await fetch(`${server.url}/api/snapshot/topology/${fixture.root}`);
    expect(response.status).toBe(401);
  });
});
