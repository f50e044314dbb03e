import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTopology } from '../src/modules/topology';
import { DEFAULT_TOPOLOGY_SCHEDULE, effectiveTopologySchedule, syncTopologySchedule, TopologyScheduler } from '../src/modules/topology/topology-scheduler';
import type { TopologyRow } from '../src/modules/topology/types';
import { startTestServer, type TestServer } from './harness';

interface JobRow {
  name: string;
  resource_type: string;
  status: string;
  success_count: number;
  error_count: number;
  duration_millis: number | null;
  hostname: string | null;
  time_end: string | null;
  details: { components: { added: number; updated: number; unchanged: number; deleted: number } | null; errors: string[] };
}

interface ComponentRow {
  id: string;
  name: string;
  external_id: string;
  parent: string | null;
  type: string | null;
  owner: string | null;
  is_leaf: boolean;
  status: string;
  deleted: boolean;
  properties: Array<{ name: string; value?: number; text?: string }>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Assigning undefined to process.env stores the text 'undefined'. */
function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

/** A spec over the catalog items and checks `fixture` makes for `suite`. */
function suiteSpec(suite: string, withDb = true): Record<string, unknown> {
  return {
    type: 'Application',
    owner: 'Platform',
    components: [
      {
        name: 'web',
        type: 'Service',
        owner: 'Edge',
        configs: [{ types: ['Kubernetes::Deployment'], tags: { cluster: suite } }],
        checks: [{ selector: { labelSelector: `suite=${suite},tier=api` } }],
        components: [
          {
            lookup: { catalog: [{ types: ['Kubernetes::Pod'], tags: { cluster: suite } }] },
            forEach: {
              type: 'Pod',
              properties: [
                { name: 'restarts', type: 'number', max: 10, configLookup: { field: '$.status.containerStatuses[0].restartCount' } },
                { name: 'node', configLookup: { field: '$.spec.nodeName' } },
              ],
            },
          },
        ],
      },
      ...(withDb ? [{ name: 'db', type: 'Database', checks: [{ selector: { name: `${suite}/db` } }] }] : []),
    ],
  };
}

describe('running topologies: the store, Run Now, the scheduler and job history', () => {
  let server: TestServer;
  let editor: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const scheduler = (): TopologyScheduler => new TopologyScheduler({ pool: server.pool });

  /** Catalog items and checks for one suite: a Deployment, two pods (one warning), a healthy and a failing check. */
  async function fixture(suite: string): Promise<{ pods: string[]; deployment: string; api: string; db: string }> {
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, namespace) values ($1, 'test') returning id`, [`canary-${suite}`]);
    const canaryId = canary.rows[0]?.id;
    const check = async (name: string, status: string, labels: Record<string, string>): Promise<string> => {
      const row = await server.pool.query<{ id: string }>(
        `insert into checks (canary_id, type, name, namespace, status, labels) values ($1, 'http', $2, 'test', $3, $4) returning id`,
        [canaryId, name, status, JSON.stringify(labels)],
      );
      return row.rows[0]?.id ?? '';
    };
    const item = async (type: string, name: string, health: string, labels: Record<string, string>, config: unknown): Promise<string> => {
      const row = await server.pool.query<{ id: string }>(
        `insert into config_items (type, config_class, name, health, tags, labels, config) values ($1, split_part($1, '::', 1), $2, $3, $4, $5, $6) returning id`,
        [type, name, health, JSON.stringify({ cluster: suite }), JSON.stringify(labels), JSON.stringify(config)],
      );
      return row.rows[0]?.id ?? '';
    };
    const pod = (node: string, restarts: number) => ({ spec: { nodeName: node }, status: { containerStatuses: [{ restartCount: restarts }] } });
    return {
      api: await check(`${suite}/api`, 'healthy', { suite, tier: 'api' }),
      db: await check(`${suite}/db`, 'unhealthy', { suite }),
      deployment: await item('Kubernetes::Deployment', `${suite}-web`, 'healthy', { app: 'web' }, { spec: { replicas: 2 } }),
      pods: [await item('Kubernetes::Pod', `${suite}-web-1`, 'healthy', { app: 'web' }, pod('node-a', 0)), await item('Kubernetes::Pod', `${suite}-web-2`, 'warning', { app: 'web' }, pod('node-b', 3))],
    };
  }

  async function createTopology(name: string, spec: unknown, extra: { agent?: string } = {}): Promise<TopologyRow> {
    const row = await server.pool.query<TopologyRow>(
      `insert into topologies (name, spec, agent_id) values ($1, $2, $3)
       returning id, name, namespace, icon, labels, spec, schedule, agent_id`,
      [name, JSON.stringify(spec), extra.agent ?? null],
    );
    const topology = row.rows[0];
    if (topology === undefined) throw new Error('no topology');
    await syncTopologySchedule(server.pool);
    // Each test runs its own topology alone: the others wait for their schedules.
    await server.pool.query(`update topologies_schedule set next_runtime = now() + interval '1 day' where topology_id <> $1`, [topology.id]);
    return topology;
  }

  async function components(topologyId: string): Promise<ComponentRow[]> {
    const rows = await server.pool.query<ComponentRow>(
      `select c.id, c.name, c.external_id, p.name as parent, c.type, c.owner, c.is_leaf, c.status, c.deleted_at is not null as deleted, c.properties
         from components c left join components p on p.id = c.parent_id
        where c.topology_id = $1 order by c.name`,
      [topologyId],
    );
    return rows.rows;
  }

  async function latestJob(topologyId: string): Promise<JobRow> {
    const row = await server.pool.query<JobRow>(
      `select name, resource_type, status, success_count, error_count, duration_millis, hostname, time_end, details
         from job_history where resource_id = $1 order by created_at desc limit 1`,
      [topologyId],
    );
    const job = row.rows[0];
    if (job === undefined) throw new Error('no job_history row');
    return job;
  }

  async function xmins(topologyId: string): Promise<string[]> {
    const rows = await server.pool.query<{ x: string }>(
      `select c.id || ':' || c.xmin::text as x from components c where c.topology_id = $1
       union all
       select r.component_id || '/' || r.check_id || ':' || r.xmin::text from check_component_relationships r join components c on c.id = r.component_id where c.topology_id = $1
       union all
       select r.component_id || '/' || r.config_id || ':' || r.xmin::text from config_component_relationships r join components c on c.id = r.component_id where c.topology_id = $1
       union all
       select t.component_id || '/' || t.team_id || ':' || t.xmin::text from team_components t join components c on c.id = t.component_id where c.topology_id = $1
       order by 1`,
      [topologyId],
    );
    return rows.rows.map((row) => row.x);
  }

  beforeAll(async () => {
    // The api role starts no scheduler of its own, so each test drives schedulers explicitly.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_ROLE', previousRole);
    await server.close();
  });

  it('stores the built tree with its looked-up components, links, team owners and statuses, and records SUCCESS', async () => {
    const made = await fixture('alpha');
    const topology = await createTopology('alpha', suiteSpec('alpha'));
    const outcome = (await scheduler().runDue()).get(topology.id);
    expect(outcome?.status, JSON.stringify(outcome?.errors)).toBe('SUCCESS');

    const rows = await components(topology.id);
    expect(rows.map((row) => [row.name, row.parent, row.external_id, row.is_leaf, row.deleted])).toEqual([
      ['alpha', null, `topology:${topology.id}`, false, false],
      ['alpha-web-1', 'web', `config:${made.pods[0]}`, true, false],
      ['alpha-web-2', 'web', `config:${made.pods[1]}`, true, false],
      ['db', 'alpha', 'db', true, false],
      ['web', 'alpha', 'web', false, false],
    ]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('alpha-web-2')?.properties).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'restarts', value: 3, max: 10 }), expect.objectContaining({ name: 'node', text: 'node-b' })]),
    );
    expect(byName.get('web')?.owner).toBe('Edge');

    const checkLinks = await server.pool.query<{ component: string; check_id: string; selector_id: string }>(
      `select c.name as component, r.check_id, r.selector_id from check_component_relationships r join components c on c.id = r.component_id
        where c.topology_id = $1 order by c.name`,
      [topology.id],
    );
    expect(checkLinks.rows.map((row) => [row.component, row.check_id])).toEqual([
      ['db', made.db],
      ['web', made.api],
    ]);
    expect(checkLinks.rows.every((row) => row.selector_id.startsWith('topology:'))).toBe(true);
    const configLinks = await server.pool.query<{ component: string; config_id: string; selector_id: string }>(
      `select c.name as component, r.config_id, r.selector_id from config_component_relationships r join components c on c.id = r.component_id
        where c.topology_id = $1 order by c.name`,
      [topology.id],
    );
    expect(configLinks.rows.map((row) => [row.component, row.config_id, row.selector_id.startsWith('topology:')])).toEqual([
      ['alpha-web-1', made.pods[0], true],
      ['alpha-web-2', made.pods[1], true],
      ['web', made.deployment, true],
    ]);
    const teams = await server.pool.query<{ component: string; team: string; selector_id: string }>(
      `select c.name as component, t.name as team, tc.selector_id from team_components tc join components c on c.id = tc.component_id
         join teams t on t.id = tc.team_id where c.topology_id = $1 order by c.name`,
      [topology.id],
    );
    expect(teams.rows).toEqual([
      { component: 'alpha', team: 'Platform', selector_id: 'topology' },
      { component: 'web', team: 'Edge', selector_id: 'topology' },
    ]);

    // topology_refresh_tree ran over the tree: the failing check makes db and the root unhealthy, the warning pod web.
    expect(Object.fromEntries(rows.map((row) => [row.name, row.status]))).toEqual({
      alpha: 'unhealthy',
      'alpha-web-1': 'healthy',
      'alpha-web-2': 'warning',
      db: 'unhealthy',
      web: 'warning',
    });

    const job = await latestJob(topology.id);
    expect(job).toMatchObject({ name: 'Topology', resource_type: 'topology', status: 'SUCCESS', success_count: 5, error_count: 0, hostname: os.hostname() });
    expect(job.time_end).not.toBeNull();
    expect(job.duration_millis).toEqual(expect.any(Number));
    expect(job.details).toEqual({ components: { added: 5, updated: 0, unchanged: 0, deleted: 0 }, errors: [] });
  });

  it('writes nothing when it runs again over an unchanged spec, catalog and checks', async () => {
    await fixture('beta');
    const topology = await createTopology('beta', suiteSpec('beta'));
    expect((await runTopology(server.pool, topology)).status).toBe('SUCCESS');
    const before = await xmins(topology.id);
    expect(before.length).toBeGreaterThan(5);

    const again = await runTopology(server.pool, topology);
    expect(again.status).toBe('SUCCESS');
    expect(again.summary).toMatchObject({ added: 0, updated: 0, unchanged: 5, deleted: 0, stored: 5 });
    expect(await xmins(topology.id)).toEqual(before);
  });

  it('soft-deletes a component the spec no longer makes with its links, keeps manual links, and brings it back with its id', async () => {
    const made = await fixture('gamma');
    const topology = await createTopology('gamma', suiteSpec('gamma'));
    await runTopology(server.pool, topology);
    const db = (await components(topology.id)).find((row) => row.name === 'db');
    if (db === undefined) throw new Error('no db component');
    await server.pool.query(`insert into config_component_relationships (component_id, config_id, selector_id) values ($1, $2, 'manual')`, [db.id, made.deployment]);
    await server.pool.query(`insert into check_component_relationships (component_id, check_id, selector_id) values ($1, $2, 'manual')`, [db.id, made.api]);

    const shrunk = await runTopology(server.pool, { ...topology, spec: suiteSpec('gamma', false) });
    expect(shrunk.summary).toMatchObject({ added: 0, deleted: 1, stored: 4 });
    expect((await components(topology.id)).find((row) => row.name === 'db')?.deleted).toBe(true);
    const links = await server.pool.query<{ check_id: string; selector_id: string }>(
      'select check_id, selector_id from check_component_relationships where component_id = $1',
      [db.id],
    );
    expect(links.rows).toEqual([{ check_id: made.api, selector_id: 'manual' }]);
    const manualConfig = await server.pool.query('select 1 from config_component_relationships where component_id = $1 and selector_id = $2', [db.id, 'manual']);
    expect(manualConfig.rowCount).toBe(1);

    const grown = await runTopology(server.pool, topology);
    expect(grown.summary).toMatchObject({ added: 1, deleted: 0, stored: 5 });
    const back = (await components(topology.id)).find((row) => row.name === 'db');
    expect(back).toMatchObject({ id: db.id, deleted: false });
    const relinked = await server.pool.query<{ selector_id: string }>('select selector_id from check_component_relationships where component_id = $1 order by selector_id', [db.id]);
    expect(relinked.rows.map((row) => row.selector_id.startsWith('topology:') ? 'topology' : row.selector_id)).toEqual(['manual', 'topology']);
  });

  it('leaves a component someone added by hand to the topology in place when a run removes what the spec no longer makes', async () => {
    await fixture('lambda');
    const topology = await createTopology('lambda', suiteSpec('lambda'));
    await runTopology(server.pool, topology);
    const manual = await server.pool.query<{ id: string }>(
      `insert into components (name, topology_id, type, status) values ('hand-made', $1, 'service', 'healthy') returning id`,
      [topology.id],
    );
    const shrunk = await runTopology(server.pool, { ...topology, spec: suiteSpec('lambda', false) });
    expect(shrunk.summary).toMatchObject({ deleted: 1 });
    const rows = await components(topology.id);
    expect(rows.find((row) => row.name === 'db')?.deleted).toBe(true);
    expect(rows.find((row) => row.id === manual.rows[0]?.id)?.deleted).toBe(false);
  });

  it('moves the team link when the owner changes and leaves manual team links alone', async () => {
    await fixture('delta');
    const topology = await createTopology('delta', suiteSpec('delta'));
    await runTopology(server.pool, topology);
    const web = (await components(topology.id)).find((row) => row.name === 'web');
    await server.pool.query(
      `insert into team_components (team_id, component_id, selector_id) select id, $1, 'manual' from teams where name = 'Database Reliability'`,
      [web?.id],
    );
    const spec = suiteSpec('delta');
    const children = spec.components as Array<Record<string, unknown>>;
    spec.components = children.map((component) => (component.name === 'web' ? { ...component, owner: 'Platform' } : component));
    await runTopology(server.pool, { ...topology, spec });
    const teams = await server.pool.query<{ team: string; selector_id: string }>(
      `select t.name as team, tc.selector_id from team_components tc join teams t on t.id = tc.team_id where tc.component_id = $1 order by t.name`,
      [web?.id],
    );
    expect(teams.rows).toEqual([
      { team: 'Database Reliability', selector_id: 'manual' },
      { team: 'Platform', selector_id: 'topology' },
    ]);
  });

  it('records a spec that no longer parses as FAILED with the reason and deletes nothing', async () => {
    await fixture('epsilon');
    const topology = await createTopology('epsilon', suiteSpec('epsilon'));
    await runTopology(server.pool, topology);
    const before = await xmins(topology.id);

    const broken = { ...topology, spec: { components: 'not a list' } };
    const outcome = await runTopology(server.pool, broken);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.summary).toBeNull();
    const job = await latestJob(topology.id);
    expect(job).toMatchObject({ status: 'FAILED', success_count: 0, error_count: 1 });
    expect(job.details.components).toBeNull();
    expect(job.details.errors[0]).toMatch(/components/);
    expect(await xmins(topology.id)).toEqual(before);
    expect((await components(topology.id)).every((row) => !row.deleted)).toBe(true);
  });

  it('stores what a build made up to the 5,000-component cap and records the cap as WARNING', async () => {
    await server.pool.query(
      `insert into config_items (type, config_class, name, tags) select 'Test::Item', 'Test', 'item-' || g, '{"cluster":"kappa"}' from generate_series(1, 5001) g`,
    );
    const topology = await createTopology('kappa', { components: [{ lookup: { catalog: [{ types: ['Test::Item'], tags: { cluster: 'kappa' } }] } }] });
    const outcome = await runTopology(server.pool, topology);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('WARNING');
    expect(outcome.summary).toMatchObject({ added: 5000, stored: 5000 });
    const job = await latestJob(topology.id);
    expect(job).toMatchObject({ status: 'WARNING', success_count: 5000, error_count: 1 });
    expect(job.details.errors[0]).toContain('5000');
    const stored = await server.pool.query<{ n: number }>('select count(*)::int as n from components where topology_id = $1 and deleted_at is null', [topology.id]);
    expect(stored.rows[0]?.n).toBe(5000);
    // The biggest tree a spec may build, written in one transaction: seconds on a quiet machine, more on a loaded one.
  }, 180_000);

  it('queues a run with Run Now (202) that the next scheduler pass records, then waits for the schedule', async () => {
    await fixture('zeta');
    const topology = await createTopology('zeta', suiteSpec('zeta'));
    await server.pool.query(`update topologies_schedule set next_runtime = now() + interval '1 day' where topology_id = $1`, [topology.id]);
    expect((await scheduler().runDue()).has(topology.id)).toBe(false);

    const queued = await server.call('POST', `/api/canary/run/topology/${topology.id}`, editor);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json).toEqual({ id: topology.id, status: 'queued' });
    expect((await scheduler().runDue()).get(topology.id)?.status).toBe('SUCCESS');

    const schedule = await server.pool.query<{ running: boolean; lease_owner: string | null; minutes: number }>(
      `select running, lease_owner, extract(epoch from next_runtime - now()) / 60 as minutes from topologies_schedule where topology_id = $1`,
      [topology.id],
    );
    expect(schedule.rows[0]).toMatchObject({ running: false, lease_owner: null });
    expect(Number(schedule.rows[0]?.minutes)).toBeGreaterThan(4);
    expect(Number(schedule.rows[0]?.minutes)).toBeLessThanOrEqual(5);
  });

  it('answers Run Now with a coded 404 for an unknown or deleted topology, 403 to a viewer and 400 for an agent topology', async () => {
    const unknown = await server.call('POST', '/api/canary/run/topology/00000000-0000-4000-8000-000000000001', editor);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'OD404', message: 'Topology not found' });

    const deleted = await createTopology('deleted-one', { components: [{ name: 'a' }] });
    await server.pool.query('update topologies set deleted_at = now() where id = $1', [deleted.id]);
    expect((await server.call('POST', `/api/canary/run/topology/${deleted.id}`, editor)).status).toBe(404);

    const mine = await createTopology('not-yours', { components: [{ name: 'a' }] });
    const refused = await server.call('POST', `/api/canary/run/topology/${mine.id}`, await server.cookieFor('viewer'));
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'OD403' });

    const agent = await server.pool.query<{ id: string }>(`insert into agents (name) values ('topology-agent') returning id`);
    const remote = await createTopology('remote', { components: [{ name: 'a' }] }, { agent: agent.rows[0]?.id });
    const agents = await server.call('POST', `/api/canary/run/topology/${remote.id}`, editor);
    expect(agents.status).toBe(400);
    expect(agents.json).toMatchObject({ code: 'OD400' });
    const scheduled = await server.pool.query('select 1 from topologies_schedule where topology_id = $1', [remote.id]);
    expect(scheduled.rowCount).toBe(0);
  });

  it('builds a topology in one scheduler only when two claim it at once', async () => {
    await fixture('eta');
    const topology = await createTopology('eta', suiteSpec('eta'));
    const first = scheduler();
    const second = scheduler();
    const [a, b] = await Promise.all([first.runDue(), second.runDue()]);
    expect([a, b].filter((outcomes) => outcomes.has(topology.id))).toHaveLength(1);
    const jobs = await server.pool.query('select 1 from job_history where resource_id = $1', [topology.id]);
    expect(jobs.rowCount).toBe(1);
    expect(first.owner).not.toBe(second.owner);
  });

  it('refuses to store a tree once another worker holds the lease', async () => {
    await fixture('theta');
    const topology = await createTopology('theta', suiteSpec('theta'));
    await server.pool.query(`update topologies_schedule set lease_owner = 'someone-else', lease_expires_at = now() + interval '1 minute' where topology_id = $1`, [topology.id]);
    const outcome = await runTopology(server.pool, topology, { leaseOwner: 'me' });
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errors[0]).toContain('another worker');
    expect(await components(topology.id)).toEqual([]);
  });

  it('runs on the column schedule, then the spec schedule, then every five minutes', () => {
    expect(DEFAULT_TOPOLOGY_SCHEDULE).toBe('@every 5m');
    expect(effectiveTopologySchedule(null, {})).toBe('@every 5m');
    expect(effectiveTopologySchedule(null, { schedule: '@every 1m' })).toBe('@every 1m');
    expect(effectiveTopologySchedule(null, { kind: 'Topology', spec: { schedule: '@hourly' } })).toBe('@hourly');
    expect(effectiveTopologySchedule('@daily', { schedule: '@every 1m' })).toBe('@daily');
  });

  it('keeps one schedule row per live topology of this server and soft-deletes the components of a deleted one', async () => {
    await fixture('iota');
    const topology = await createTopology('iota', suiteSpec('iota'));
    await runTopology(server.pool, topology);
    await server.pool.query(`update topologies_schedule set next_runtime = now() + interval '1 day' where topology_id = $1`, [topology.id]);
    expect(await syncTopologySchedule(server.pool)).toBe(0);

    await server.pool.query(`update topologies set description = 'edited' where id = $1`, [topology.id]);
    expect(await syncTopologySchedule(server.pool)).toBe(1);

    await server.pool.query('update topologies set deleted_at = now() where id = $1', [topology.id]);
    await syncTopologySchedule(server.pool);
    expect((await server.pool.query('select 1 from topologies_schedule where topology_id = $1', [topology.id])).rowCount).toBe(0);
    const rows = await components(topology.id);
    expect(rows.length).toBe(5);
    expect(rows.every((row) => row.deleted)).toBe(true);
  });
});

describe('the demo topologies', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds the Shop from the catalog demo with every state, team owners and the incident evidence pointing at it', async () => {
    const rows = await server.pool.query<{ name: string; type: string | null; status: string; parent: string | null; teams: string[] }>(
      `select c.name, c.type, c.status, p.name as parent,
              array(select tm.name from team_components tc join teams tm on tm.id = tc.team_id where tc.component_id = c.id order by tm.name) as teams
         from components c join topologies t on t.id = c.topology_id left join components p on p.id = c.parent_id
        where t.name = 'Shop' and c.deleted_at is null`,
    );
    const byName = new Map(rows.rows.map((row) => [row.name, row]));
    expect(byName.get('Shop')).toMatchObject({ parent: null, status: 'unhealthy', teams: ['Platform'] });
    expect(byName.get('prod-eu')?.parent).toBe('Shop');
    expect(byName.get('checkout')).toMatchObject({ parent: 'shop', status: 'unhealthy', teams: ['Edge'] });
    expect(byName.get('Operations')?.status).toBe('unhealthy');
    expect(byName.get('ledger')?.status).toBe('warning');
    expect(byName.get('Nodes')?.status).toBe('warning');
    expect(byName.get('payments-db')?.teams).toEqual(['Database Reliability']);
    const pods = rows.rows.filter((row) => row.parent === 'checkout' && row.type === 'Pod');
    expect(pods.length).toBeGreaterThanOrEqual(6);
    expect(new Set(rows.rows.map((row) => row.status))).toEqual(new Set(['healthy', 'unhealthy', 'warning']));

    const evidence = await server.pool.query<{ component: string }>(
      `select c.name as component from evidences e join components c on c.id = e.component_id join topologies t on t.id = c.topology_id
        where e.type = 'topology' and t.name = 'Shop' order by c.name`,
    );
    expect(evidence.rows.map((row) => row.component)).toEqual(['checkout', 'payments-db']);

    const jobs = await server.pool.query<{ status: string; resource_name: string }>(
      // The demo's job history also holds runs from hours ago; these are the runs the seed itself made.
      `select status, resource_name from job_histories where resource_type = 'topology' and created_at > now() - interval '1 hour' order by resource_name`,
    );
    expect(jobs.rows).toEqual([
      { status: 'SUCCESS', resource_name: 'Platform' },
      { status: 'SUCCESS', resource_name: 'Platform' },
      { status: 'SUCCESS', resource_name: 'Shop' },
      { status: 'SUCCESS', resource_name: 'Shop' },
    ]);
    const roots = await server.pool.query(`select 1 from components where parent_id is null and deleted_at is null and topology_id is not null`);
    expect(roots.rowCount).toBeGreaterThanOrEqual(2);
  });
});

describe('the topology plugin in a worker process', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds a topology saved through the data API at once, with no Run Now', async () => {
    const spec = { type: 'Application', components: [{ name: 'edge', checks: [{ selector: { name: 'network/loopback' } }] }] };
    const created = await server.call('POST', '/api/db/topologies', await server.cookieFor('editor'), { name: 'saved', spec }, { prefer: 'return=representation' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id;
    let status: string | undefined;
    for (let attempt = 0; attempt < 100 && status !== 'SUCCESS'; attempt += 1) {
      await sleep(100);
      const job = await server.pool.query<{ status: string }>('select status from job_history where resource_id = $1 order by created_at desc limit 1', [id]);
      status = job.rows[0]?.status;
    }
    expect(status).toBe('SUCCESS');
    const built = await server.pool.query<{ name: string }>('select name from components where topology_id = $1 and deleted_at is null order by name', [id]);
    expect(built.rows.map((row) => row.name)).toEqual(['edge', 'saved']);
  });
});
