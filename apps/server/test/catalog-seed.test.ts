import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogDemo } from '../src/seed/catalog';
import { startTestServer, type TestServer } from './harness';

const ANALYSIS_TYPES = ['cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technical_debt', 'reliability', 'recommendation', 'other'];
const SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'];

describe('catalog demo estate', () => {
  let server: TestServer;
  let scraperId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const scraper = await server.pool.query<{ id: string }>(`select id from config_scrapers where name = 'demo-estate'`);
    scraperId = scraper.rows[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
    const row = (await server.pool.query(sql, values)).rows[0] as T | undefined;
    if (row === undefined) throw new Error(`no row for ${sql}`);
    return row;
  }

  it('seeds a few hundred items of every Kubernetes and AWS type with their class, tags and labels', async () => {
    const counts = await server.pool.query<{ type: string; config_class: string; n: number }>(
      `select type, config_class, count(*)::int as n from config_items where scraper_id = $1 group by type, config_class`,
      [scraperId],
    );
    const byType = Object.fromEntries(counts.rows.map((row) => [row.type, row.n]));
    expect(byType['Kubernetes::Cluster']).toBe(2);
    expect(byType['Kubernetes::Namespace']).toBe(8);
    expect(byType['Kubernetes::Node']).toBe(6);
    expect(byType['Kubernetes::Deployment']).toBe(29);
    expect(byType['Kubernetes::ReplicaSet']).toBe(58);
    for (const type of ['Kubernetes::Pod', 'Kubernetes::Service', 'Kubernetes::ConfigMap', 'AWS::EC2::Instance', 'AWS::RDS::DBInstance', 'AWS::S3::Bucket', 'AWS::IAM::Role']) {
      expect(byType[type] ?? 0, type).toBeGreaterThan(3);
    }
    const total = counts.rows.reduce((sum, row) => sum + row.n, 0);
    expect(total).toBeGreaterThan(200);
    expect(total).toBeLessThan(500);
    expect(counts.rows.every((row) => row.config_class === row.type.split('::')[0])).toBe(true);
    const untagged = await one<{ n: number }>(
      `select count(*)::int as n from config_items
        where scraper_id = $1 and (not tags ? 'account' or not tags ? 'region' or (type like 'Kubernetes::%' and not tags ? 'cluster'))`,
      [scraperId],
    );
    expect(untagged.n).toBe(0);
    const namespaced = await one<{ n: number }>(`select count(*)::int as n from config_items where scraper_id = $1 and type = 'Kubernetes::Pod' and tags ->> 'namespace' = 'shop'`, [scraperId]);
    expect(namespaced.n).toBeGreaterThan(10);
  });

  it('builds the parent chain from cluster to pod and soft links from pods to nodes and services to pods', async () => {
    const chain = await one<{ types: string[]; path_ok: boolean; node_links: number; service_links: number }>(
      `select array[c.type, ns.type, d.type, rs.type, p.type] as types,
              p.path = concat_ws('.', c.id, ns.id, d.id, rs.id) as path_ok,
              (select count(*)::int from config_relationships r join config_items n on n.id = r.related_id
                where r.config_id = p.id and n.type = 'Kubernetes::Node') as node_links,
              (select count(*)::int from config_relationships r join config_items s on s.id = r.config_id
                where r.related_id = p.id and s.type = 'Kubernetes::Service' and s.name = 'checkout') as service_links
         from config_items p
         join config_items rs on rs.id = p.parent_id
         join config_items d on d.id = rs.parent_id
         join config_items ns on ns.id = d.parent_id
         join config_items c on c.id = ns.parent_id
        where p.scraper_id = $1 and p.type = 'Kubernetes::Pod' and d.name = 'checkout' and c.name = 'prod-eu' and p.deleted_at is null
        order by p.name limit 1`,
      [scraperId],
    );
    expect(chain.types).toEqual(['Kubernetes::Cluster', 'Kubernetes::Namespace', 'Kubernetes::Deployment', 'Kubernetes::ReplicaSet', 'Kubernetes::Pod']);
    expect(chain.path_ok).toBe(true);
    expect(chain.node_links).toBe(1);
    expect(chain.service_links).toBe(1);
    const ec2ToRds = await one<{ n: number }>(
      `select count(*)::int as n from config_relationships r join config_items f on f.id = r.config_id join config_items t on t.id = r.related_id
        where f.type = 'AWS::EC2::Instance' and t.type = 'AWS::RDS::DBInstance'`,
    );
    expect(ec2ToRds.n).toBeGreaterThan(0);
  });

  it('records two weeks of changes with unified diffs and folded repeats', async () => {
    const changes = await one<{ n: number; oldest_days: number; diffs: number; with_patches: number }>(
      `select count(*)::int as n, extract(day from now() - min(ch.created_at))::int as oldest_days,
              count(*) filter (where ch.diff like '--- a/%' and ch.diff like '%' || chr(10) || '+%' and ch.diff like '%' || chr(10) || '-%')::int as diffs,
              count(*) filter (where ch.patches is not null and ch.details is not null)::int as with_patches
         from config_changes ch join config_items i on i.id = ch.config_id where i.scraper_id = $1`,
      [scraperId],
    );
    expect(changes.n).toBeGreaterThan(100);
    expect(changes.oldest_days).toBeGreaterThanOrEqual(10);
    expect(changes.oldest_days).toBeLessThanOrEqual(14);
    expect(changes.diffs).toBeGreaterThan(20);
    expect(changes.with_patches).toBeGreaterThan(0);
    const folded = await one<{ count: number; earlier: boolean }>(
      `select ch.count, ch.first_observed < ch.created_at - interval '1 hour' as earlier
         from config_changes ch join config_items i on i.id = ch.config_id
        where i.scraper_id = $1 and ch.fingerprint is not null and ch.count > 1 order by ch.count desc limit 1`,
      [scraperId],
    );
    expect(folded.count).toBeGreaterThan(1);
    expect(folded.earlier).toBe(true);
  });

  it('has insights of every analysis type and every severity', async () => {
    const insights = await server.pool.query<{ analysis_type: string; severity: string }>(
      `select a.analysis_type, a.severity from config_analysis a join config_items i on i.id = a.config_id where i.scraper_id = $1`,
      [scraperId],
    );
    expect(new Set(insights.rows.map((row) => row.analysis_type))).toEqual(new Set(ANALYSIS_TYPES));
    expect(new Set(insights.rows.map((row) => row.severity))).toEqual(new Set(SEVERITIES));
  });

  it('prices AWS resources with one, seven and thirty day totals', async () => {
    const costs = await one<{ priced: number; consistent: boolean }>(
      `select count(*)::int as priced, bool_and(cost_total_1d = round(cost_per_minute * 1440, 4) and cost_total_30d > cost_total_7d) as consistent
         from config_items where scraper_id = $1 and cost_per_minute > 0`,
      [scraperId],
    );
    expect(costs.priced).toBeGreaterThan(20);
    expect(costs.consistent).toBe(true);
  });

  it('includes deleted items and stale items scraped more than an hour ago', async () => {
    const states = await one<{ deleted: number; recent_deleted: number; stale: number }>(
      `select count(*) filter (where deleted_at is not null)::int as deleted,
              count(*) filter (where deleted_at > now() - interval '7 days')::int as recent_deleted,
              count(*) filter (where deleted_at is null and last_scraped_time < now() - interval '1 hour')::int as stale
         from config_items where scraper_id = $1`,
      [scraperId],
    );
    expect(states.deleted).toBeGreaterThanOrEqual(3);
    expect(states.recent_deleted).toBeGreaterThan(0);
    expect(states.stale).toBeGreaterThanOrEqual(2);
  });

  it('links the demo health checks and the first incident to catalog items', async () => {
    const checks = await one<{ n: number }>(
      `select count(*)::int as n from check_config_relationships l join config_items i on i.id = l.config_id where i.scraper_id = $1`,
      [scraperId],
    );
    expect(checks.n).toBeGreaterThanOrEqual(3);
    const evidence = await one<{ type: string; name: string }>(
      `select i.type, i.name from evidences e join hypotheses h on h.id = e.hypothesis_id join incidents inc on inc.id = h.incident_id
         join config_items i on i.id = e.config_id
        where inc.title = 'Checkout latency above SLO' and e.type = 'config' and i.type = 'Kubernetes::Deployment'`,
    );
    expect(evidence).toEqual({ type: 'Kubernetes::Deployment', name: 'checkout' });
    const adopted = await one<{ parent_type: string }>(
      `select p.type as parent_type from config_items c join config_items p on p.id = c.parent_id where c.name = 'checkout-7d9f6c'`,
    );
    expect(adopted.parent_type).toBe('Kubernetes::ReplicaSet');
  });

  it('seeds the estate only once', async () => {
    const client = await server.pool.connect();
    try {
      expect(await seedCatalogDemo(client)).toBeNull();
    } finally {
      client.release();
    }
    const scrapers = await one<{ n: number }>(`select count(*)::int as n from config_scrapers where name = 'demo-estate'`);
    expect(scrapers.n).toBe(1);
  });
});
