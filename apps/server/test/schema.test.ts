import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { startTestServer, type TestServer } from './harness';

const TABLES = [
  'incidents', 'hypotheses', 'evidences', 'comments', 'responders', 'incident_histories', 'incident_rules',
  'saved_queries', 'canaries', 'checks', 'check_statuses', 'check_statuses_1h', 'check_statuses_1d',
  'check_component_relationships', 'check_config_relationships', 'topologies', 'components', 'component_relationships',
  'team_components', 'config_component_relationships', 'config_items', 'config_changes', 'config_analysis',
  'config_relationships', 'config_scrapers', 'config_tag_values', 'playbooks', 'playbook_runs', 'playbook_run_actions',
  'agents', 'job_history', 'event_queue', 'notifications', 'notification_send_history', 'connections',
  'logging_backends',
];

const VIEWS = [
  'incident_summary', 'incidents_by_component', 'incidents_by_config', 'configs', 'config_detail', 'config_tags',
  'config_labels', 'config_names', 'config_types', 'config_statuses', 'config_analysis_analyzers', 'change_types',
  'config_analysis_items', 'analysis_by_component', 'changes_by_component', 'check_summary_for_config',
  'component_names', 'components_with_logs', 'component_labels', 'checks_by_component', 'job_histories',
  'job_history_names', 'notifications_summary', 'agents_summary', 'event_queue_summary', 'integrations',
  'integrations_with_status', 'canaries_with_status', 'topologies_with_status', 'config_scrapers_with_status',
  'logging_backends_with_status', 'teams_with_status',
];

async function one<T extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<T> {
  const result = await pool.query<T>(sql, params);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`no row from: ${sql}`);
  return row;
}

describe('database schema', () => {
  let server: TestServer;
  let pool: pg.Pool;
  let adminId: string;

  beforeAll(async () => {
    server = await startTestServer();
    pool = server.pool;
    adminId = (await one<{ id: string }>(pool, `select id from people where email = 'admin@opsdeck.local'`)).id;
  });
  afterAll(async () => {
    await server.close();
  });

  it('has every table and view the spec screens call', async () => {
    const { rows } = await pool.query<{ relname: string; relkind: string }>(
      `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'v')`,
    );
    const tables = new Set(rows.filter((r) => r.relkind === 'r').map((r) => r.relname));
    const views = new Set(rows.filter((r) => r.relkind === 'v').map((r) => r.relname));
    expect(TABLES.filter((name) => !tables.has(name))).toEqual([]);
    expect(VIEWS.filter((name) => !views.has(name))).toEqual([]);
  });

  it('answers a query on every view without error', async () => {
    for (const view of VIEWS) {
      await expect(pool.query(`select * from ${view} limit 1`), view).resolves.toBeDefined();
    }
  });

  it('numbers incidents INC-<n> in increasing order', async () => {
    const { rows } = await pool.query<{ incident_id: string }>(
      `insert into incidents (title, created_by) select 'numbered ' || g, $1 from generate_series(1, 3) g
       returning incident_id`,
      [adminId],
    );
    const numbers = rows.map((row) => {
      expect(row.incident_id).toMatch(/^INC-\d+$/);
      return Number(row.incident_id.slice(4));
    });
    expect(numbers).toHaveLength(3);
    expect(numbers[1]).toBeGreaterThan(numbers[0] ?? Infinity);
    expect(numbers[2]).toBeGreaterThan(numbers[1] ?? Infinity);
  });

  it('refuses an incident status outside the spec list', async () => {
    await expect(
      pool.query(`insert into incidents (title, status) values ('bad status', 'paused')`),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('writes the incident changelog from triggers for every step of an investigation', async () => {
    const incident = await one<{ id: string }>(
      pool,
      `insert into incidents (title, severity, type, status, created_by) values ('API latency', 'high', 'performance',
       'open', $1) returning id`,
      [adminId],
    );
    const responder = await one<{ id: string }>(pool, `select id from people where email = 'responder@opsdeck.local'`);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('opsdeck.person_id', $1, true)`, [responder.id]);
      await client.query(`update incidents set status = 'investigating' where id = $1`, [incident.id]);
      await client.query('commit');
    } finally {
      client.release();
    }
    const hypothesis = await one<{ id: string }>(
      pool,
      `insert into hypotheses (incident_id, title, type, status, created_by) values ($1, 'Root cause', 'root',
       'possible', $2) returning id`,
      [incident.id, adminId],
    );
    await pool.query(`update hypotheses set status = 'likely' where id = $1`, [hypothesis.id]);
    const evidence = await one<{ id: string }>(
      pool,
      `insert into evidences (hypothesis_id, type, description, evidence, created_by)
       values ($1, 'comment', 'Slow queries', '{"comment": "p99 doubled"}', $2) returning id`,
      [hypothesis.id, adminId],
    );
    await pool.query(`update evidences set definition_of_done = true where id = $1`, [evidence.id]);
    await pool.query(
      `insert into responders (incident_id, type, person_id, created_by) values ($1, 'person', $2, $3)`,
      [incident.id, responder.id, adminId],
    );
    await pool.query(
      `insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, 'Looking at it', $3)`,
      [incident.id, hypothesis.id, adminId],
    );

    const { rows } = await pool.query<{ type: string; created_by: string | null; evidence_id: string | null;
      hypothesis_id: string | null; responder_id: string | null; comment_id: string | null; description: string | null }>(
      `select type, created_by, evidence_id, hypothesis_id, responder_id, comment_id, description
         from incident_histories where incident_id = $1`,
      [incident.id],
    );
    expect(rows.map((row) => row.type).sort()).toEqual([
      'evidence.created',
      'evidence.done_definition_added',
      'hypothesis.created',
      'hypothesis.status_updated',
      'incident.created',
      'incident.status_updated',
      'responder.commented',
      'responder.created',
    ]);
    const byType = new Map(rows.map((row) => [row.type, row]));
    expect(byType.get('incident.created')?.created_by).toBe(adminId);
    expect(byType.get('incident.status_updated')).toMatchObject({
      created_by: responder.id,
      description: 'Status changed from open to investigating',
    });
    expect(byType.get('hypothesis.status_updated')?.hypothesis_id).toBe(hypothesis.id);
    expect(byType.get('evidence.done_definition_added')?.evidence_id).toBe(evidence.id);
    expect(byType.get('responder.created')?.responder_id).not.toBeNull();
    expect(byType.get('responder.commented')?.comment_id).not.toBeNull();
  });

  it('leaves the changelog alone when an update does not change a status', async () => {
    const incident = await one<{ id: string }>(
      pool, `insert into incidents (title, created_by) values ('quiet', $1) returning id`, [adminId],
    );
    await pool.query(`update incidents set title = 'still quiet', status = 'open' where id = $1`, [incident.id]);
    const { rows } = await pool.query<{ type: string }>(
      'select type from incident_histories where incident_id = $1', [incident.id],
    );
    expect(rows.map((row) => row.type)).toEqual(['incident.created']);
  });

  it('finds related configs through soft links and the parent tree, in both directions', async () => {
    const ids = await pool.query<{ id: string; name: string }>(
      `insert into config_items (name, type) values ('web', 'Kubernetes::Deployment'), ('db', 'AWS::RDS'),
       ('gone', 'AWS::RDS') returning id, name`,
    );
    const id = (name: string): string => ids.rows.find((row) => row.name === name)?.id ?? '';
    const replica = await one<{ id: string; path: string; config_class: string }>(
      pool,
      `insert into config_items (name, type, parent_id) values ('db-replica', 'AWS::RDSReplica', $1)
       returning id, path, config_class`,
      [id('db')],
    );
    expect(replica).toMatchObject({ path: id('db'), config_class: 'AWS' });
    await pool.query(`update config_items set deleted_at = now() where id = $1`, [id('gone')]);
    await pool.query(
      `insert into config_relationships (config_id, related_id, relation) values ($1, $2, 'uses'), ($1, $3, 'used')`,
      [id('web'), id('db'), id('gone')],
    );

    const outgoing = await pool.query<{ name: string; depth: number; related_ids: string[]; direction: string }>(
      `select name, depth, related_ids::text[] as related_ids, direction from related_configs_recursive($1)
        order by depth`,
      [id('web')],
    );
    expect(outgoing.rows).toEqual([
      { name: 'db', depth: 1, related_ids: [id('web')], direction: 'outgoing' },
      { name: 'db-replica', depth: 2, related_ids: [id('db')], direction: 'outgoing' },
    ]);

    const hardOnly = await pool.query<{ name: string }>(
      `select name from related_configs_recursive($1, outgoing_relation => 'hard')`, [id('web')],
    );
    expect(hardOnly.rows).toEqual([]);

    const incoming = await pool.query<{ name: string; depth: number }>(
      `select name, depth from related_configs_recursive($1, type_filter => 'incoming', max_depth => 1)`,
      [replica.id],
    );
    expect(incoming.rows).toEqual([{ name: 'db', depth: 1 }]);

    const withDeleted = await pool.query<{ name: string }>(
      `select name from related_configs_recursive($1, include_deleted_configs => true, max_depth => 1,
        type => array['AWS::RDS']) order by name`,
      [id('web')],
    );
    expect(withDeleted.rows.map((row) => row.name)).toEqual(['db', 'gone']);
  });

  it('rolls check results up into hourly and daily buckets with a latency histogram', async () => {
    const check = await one<{ id: string }>(
      pool,
      `with canary as (insert into canaries (name) values ('rollup') returning id)
       insert into checks (canary_id, type, name, status) select id, 'http', 'rollup', 'healthy' from canary
       returning id`,
    );
    await pool.query(
      `insert into check_statuses (check_id, time, status, duration)
       select $1, timestamptz '2024-03-01 10:00:00+00' + g * interval '1 minute', g % 4 <> 0, g * 100
         from generate_series(0, 89) g`,
      [check.id],
    );
    await pool.query(
      `insert into check_statuses (check_id, time, status, duration) values ($1, '2024-03-01 11:59:00+00', false, 70000)`,
      [check.id],
    );
    const hourly = await pool.query<{ bucket: string; total: number; passed: number; failed: number }>(
      `select to_char(bucket at time zone 'UTC', 'HH24') as bucket, total, passed, failed
         from check_statuses_1h where check_id = $1 order by bucket`,
      [check.id],
    );
    expect(hourly.rows).toEqual([
      { bucket: '10', total: 60, passed: 45, failed: 15 },
      { bucket: '11', total: 31, passed: 22, failed: 9 },
    ]);
    const daily = await one<{ total: number; duration_max: number; histogram_total: number; p50: number; p90: number;
      p99: number }>(
      pool,
      `select total, duration_max, (select sum(x) from unnest(duration_histogram) x)::int as histogram_total,
              check_duration_percentile(duration_histogram, 0.5, duration_max) as p50,
              check_duration_percentile(duration_histogram, 0.9, duration_max) as p90,
              check_duration_percentile(duration_histogram, 0.99, duration_max) as p99
         from check_statuses_1d where check_id = $1`,
      [check.id],
    );
    expect(daily).toMatchObject({ total: 91, duration_max: 70000, histogram_total: 91 });
    // Exact values: median 4500 ms in the 2500-5000 slot, p90 8100 ms in the 5000-10000 slot; p99 falls on the one
    // 70 s run, in the open slot above 60 s that ends at the day's duration_max.
    expect(daily.p50).toBeGreaterThanOrEqual(2500);
    expect(daily.p50).toBeLessThanOrEqual(5000);
    expect(daily.p90).toBeGreaterThanOrEqual(5000);
    expect(daily.p90).toBeLessThanOrEqual(10000);
    expect(daily.p99).toBeGreaterThan(60000);
    expect(daily.p99).toBeLessThanOrEqual(70000);
  });

  it('moves last_transition_time only when a check flips status', async () => {
    const check = await one<{ id: string; last_transition_time: string }>(
      pool,
      `with canary as (insert into canaries (name) values ('flip') returning id)
       insert into checks (canary_id, type, name, status, last_runtime)
       select id, 'tcp', 'flip', 'healthy', '2024-01-01 00:00:00+00' from canary returning id, last_transition_time`,
    );
    const same = await one<{ last_transition_time: string }>(
      pool,
      `update checks set last_runtime = '2024-01-02 00:00:00+00', last_transition_time = now() where id = $1
       returning last_transition_time`,
      [check.id],
    );
    expect(same.last_transition_time).toBe(check.last_transition_time);
    const flipped = await one<{ moved: boolean }>(
      pool,
      `update checks set status = 'unhealthy', last_runtime = '2024-01-03 00:00:00+00' where id = $1
       returning last_transition_time = '2024-01-03 00:00:00+00' as moved`,
      [check.id],
    );
    expect(flipped.moved).toBe(true);
  });
});
