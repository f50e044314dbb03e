import type pg from 'pg';

export interface ScaleCatalogOptions {
  configs?: number;
  /** Average changes per item; the default gives about 1,000,000 changes for 100,000 items. */
  changesPerConfig?: number;
  /** Share of the items that get one insight; the default gives 50,000 insights for 100,000 items. */
  insightShare?: number;
  /** Items whose changes go into one transaction; smaller on PGlite, whose single backend holds a batch in memory. */
  configsPerBatch?: number;
  onProgress?: (message: string) => void;
}

export interface ScaleCatalogResult {
  configs: number;
  changes: number;
  insights: number;
  relationships: number;
  seconds: number;
}

interface Level {
  type: string;
  /** Share of the items at this level; pods take what is left. */
  share: number;
  parentType: string | null;
}

const CLUSTERS = 10;
const LEVELS: Level[] = [
  { type: 'Kubernetes::Namespace', share: 0.01, parentType: 'Kubernetes::Cluster' },
  { type: 'Kubernetes::Node', share: 0.02, parentType: 'Kubernetes::Cluster' },
  { type: 'Kubernetes::Deployment', share: 0.1, parentType: 'Kubernetes::Namespace' },
  { type: 'Kubernetes::Service', share: 0.08, parentType: 'Kubernetes::Namespace' },
  { type: 'Kubernetes::ConfigMap', share: 0.09, parentType: 'Kubernetes::Namespace' },
  { type: 'Kubernetes::ReplicaSet', share: 0.1, parentType: 'Kubernetes::Deployment' },
  { type: 'AWS::EC2::Instance', share: 0.05, parentType: null },
  { type: 'AWS::RDS::DBInstance', share: 0.02, parentType: null },
  { type: 'AWS::S3::Bucket', share: 0.02, parentType: null },
  { type: 'AWS::IAM::Role', share: 0.01, parentType: null },
];
const POD_PARENT = 'Kubernetes::ReplicaSet';

const ANALYSIS_TYPES = ['cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technical_debt', 'reliability', 'recommendation', 'other'];
const SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'];
const CHANGE_TYPES = ['diff', 'diff', 'diff', 'ScalingReplicaSet', 'Pulled', 'BackOff', 'PolicyUpdate', 'CreateTags', 'Killing', 'RunInstances'];

/**
 * Items of one type, each under a parent of parentType picked round-robin from this run's items. The whole level is
 * one statement: the derive trigger computes each path from the parent's, which is why parents go in first.
 */
async function insertLevel(pool: pg.Pool, scraperId: string, type: string, count: number, parentType: string | null): Promise<number> {
  const result = await pool.query(
    `with parents as (
       select coalesce(array_agg(id order by name), '{}') as ids from config_items where scraper_id = $1 and type = $4
     ), made as (
       select g, case when cardinality(p.ids) = 0 then null else p.ids[1 + g % cardinality(p.ids)] end as parent_id
         from generate_series(0, $3 - 1) g cross join parents p
     )
     insert into config_items (scraper_id, external_id, type, config_class, name, status, health, ready, parent_id, tags, labels,
                               config, format, source, cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d,
                               last_scraped_time, created_at, deleted_at)
     select $1, array[$2 || '/' || g], $2, split_part($2, '::', 1),
            lower(replace(split_part($2, '::', -1), 'DBInstance', 'db')) || '-' || lpad(g::text, 6, '0'),
            (array['Running', 'Running', 'Running', 'Pending', 'Failed'])[1 + g % 5],
            (array['healthy', 'healthy', 'healthy', 'healthy', 'healthy', 'warning', 'unhealthy', 'unknown'])[1 + g % 8],
            g % 8 < 5,
            m.parent_id,
            jsonb_build_object('cluster', 'cluster-' || (g % ${CLUSTERS}), 'namespace', 'ns-' || (g % 100),
                               'account', 'acct-' || (g % 4), 'region', (array['eu-west-1', 'us-east-1', 'ap-south-1'])[1 + g % 3]),
            jsonb_build_object('app', 'app-' || (g % 500), 'team', 'team-' || (g % 20), 'env', (array['prod', 'staging', 'dev'])[1 + g % 3]),
            jsonb_build_object('kind', split_part($2, '::', -1), 'metadata', jsonb_build_object('name', 'item-' || g, 'generation', 1 + g % 9),
                               'spec', jsonb_build_object('replicas', 1 + g % 5, 'image', 'registry.local/app-' || (g % 500) || ':1.' || (g % 40))),
            'json', 'seed:scale',
            case when $2 like 'AWS::%' then round((0.0001 + (g % 97) * 0.0007)::numeric, 4) end,
            case when $2 like 'AWS::%' then round(((0.0001 + (g % 97) * 0.0007) * 1440)::numeric, 4) end,
            case when $2 like 'AWS::%' then round(((0.0001 + (g % 97) * 0.0007) * 10080 * (0.9 + (g % 7) * 0.05))::numeric, 4) end,
            case when $2 like 'AWS::%' then round(((0.0001 + (g % 97) * 0.0007) * 43200 * (0.8 + (g % 9) * 0.05))::numeric, 4) end,
            now() - case when g % 50 = 0 then interval '3 days' else make_interval(mins => g % 50) end,
            now() - make_interval(days => 30 + g % 300),
            case when g % 200 = 0 then now() - make_interval(days => g % 14) end
       from made m`,
    [scraperId, type, count, parentType],
  );
  return result.rowCount ?? 0;
}

/** One transaction of changes for a slice of the items: about perItem rows each, every tenth one folded. */
async function insertChanges(client: pg.PoolClient, ids: string[], perItem: number): Promise<number> {
  await client.query('begin');
  try {
    await client.query(`select set_config('statement_timeout', '0', true)`);
    const result = await client.query(
      `insert into config_changes (config_id, change_type, severity, source, summary, diff, details, fingerprint, count, first_observed, created_at)
       select c.id, ct.change_type, (array['info', 'info', 'info', 'low', 'medium', 'high', 'warning'])[1 + (h + g) % 7], 'seed:scale',
              case ct.change_type when 'diff' then 'spec.replicas ' || (g % 5) || ' → ' || (1 + g % 5) else ct.change_type || ' on ' || c.id end,
              case ct.change_type when 'diff' then '--- a\n+++ b\n@@ -1,3 +1,3 @@\n spec:\n-  replicas: ' || (g % 5) || '\n+  replicas: ' || (1 + g % 5) || '\n' end,
              jsonb_build_object('generation', g),
              case when g % 10 = 0 then ct.change_type || '/' || g end,
              case when g % 10 = 0 then 2 + g % 5 else 1 end,
              now() - make_interval(mins => (h + g * 2017) % 43200) - case when g % 10 = 0 then interval '2 days' else interval '0' end,
              now() - make_interval(mins => (h + g * 2017) % 43200)
         from unnest($1::uuid[]) c(id)
        cross join lateral (select hashtext(c.id::text) & 1048575 as h) hh
        cross join lateral generate_series(1, 1 + (h % (2 * $2 - 1))) g
        cross join lateral (select ($3::text[])[1 + (h + g) % cardinality($3::text[])] as change_type) ct`,
      [ids, perItem, CHANGE_TYPES],
    );
    await client.query('commit');
    return result.rowCount ?? 0;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/**
 * N catalog items of a Kubernetes and AWS estate with their parent tree, soft relationships, about ten changes each and
 * one insight for every other item, all generated in SQL. Items belong to a scraper named after this run, so that
 * several runs add up and each run's rows stay findable.
 */
export async function seedScaleCatalog(pool: pg.Pool, options: ScaleCatalogOptions = {}): Promise<ScaleCatalogResult> {
  const total = options.configs ?? 100_000;
  const perItem = Math.max(1, options.changesPerConfig ?? 10);
  const insightShare = options.insightShare ?? 0.5;
  const perBatch = options.configsPerBatch ?? 10_000;
  const progress = options.onProgress ?? (() => undefined);
  const started = Date.now();

  const scraper = await pool.query<{ id: string }>(
    `insert into config_scrapers (name, namespace, description, source) values ($1, 'seed-scale', 'Generated by npm run seed:scale', 'seed:scale') returning id`,
    [`scale-${Date.now().toString(36)}`],
  );
  const scraperId = scraper.rows[0]?.id;
  if (scraperId === undefined) throw new Error('scraper insert returned no id');

  let configs = await insertLevel(pool, scraperId, 'Kubernetes::Cluster', Math.min(CLUSTERS, total), null);
  for (const level of LEVELS) {
    configs += await insertLevel(pool, scraperId, level.type, Math.floor(total * level.share), level.parentType);
  }
  configs += await insertLevel(pool, scraperId, 'Kubernetes::Pod', Math.max(0, total - configs), POD_PARENT);
  progress(`${configs.toLocaleString('en')} items (${((Date.now() - started) / 1000).toFixed(0)} s)`);

  // Pods run on nodes, services select pods, instances talk to databases: the soft edges of the graph.
  const edges = await pool.query(
    `with edge(from_type, to_type, relation) as (
       values ('Kubernetes::Pod', 'Kubernetes::Node', 'PodNode'),
              ('Kubernetes::Service', 'Kubernetes::Pod', 'ServicePod'),
              ('AWS::EC2::Instance', 'AWS::RDS::DBInstance', 'InstanceDatabase')
     ), targets as (
       select e.from_type, e.relation, t.ids
         from edge e
        cross join lateral (select array_agg(id order by id) as ids from config_items where scraper_id = $1 and type = e.to_type) t
        where cardinality(t.ids) > 0
     )
     insert into config_relationships (config_id, related_id, relation, selector_id)
     select f.id, t.ids[1 + (f.n % cardinality(t.ids))::integer], t.relation, 'seed:scale'
       from targets t
       join lateral (select id, row_number() over (order by id) as n from config_items where scraper_id = $1 and type = t.from_type) f on true
     on conflict do nothing`,
    [scraperId],
  );
  progress(`${(edges.rowCount ?? 0).toLocaleString('en')} relationships (${((Date.now() - started) / 1000).toFixed(0)} s)`);

  const ids = (await pool.query<{ id: string }>('select id from config_items where scraper_id = $1 order by id', [scraperId])).rows.map((row) => row.id);
  let changes = 0;
  const client = await pool.connect();
  try {
    for (let offset = 0; offset < ids.length; offset += perBatch) {
      changes += await insertChanges(client, ids.slice(offset, offset + perBatch), perItem);
      progress(`${changes.toLocaleString('en')} changes, ${Math.min(ids.length, offset + perBatch).toLocaleString('en')} / ${ids.length.toLocaleString('en')} items (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  } finally {
    client.release();
  }

  const insights = await pool.query(
    `insert into config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, summary, message, analysis, source,
                                  first_observed, last_observed)
     select c.id, $1, 'scale-' || t.analysis_type, t.analysis_type, ($4::text[])[1 + c.n % cardinality($4::text[])],
            (array['open', 'open', 'open', 'resolved', 'silenced'])[1 + c.n % 5],
            t.analysis_type || ' finding on ' || c.name, 'Generated finding number ' || c.n || ' for ' || c.name,
            jsonb_build_object('n', c.n), 'seed:scale',
            now() - make_interval(hours => c.n % 720), now() - make_interval(mins => c.n % 600)
       from (select id, name, (row_number() over (order by id))::integer as n from config_items where scraper_id = $1) c
      cross join lateral (select ($3::text[])[1 + c.n % cardinality($3::text[])] as analysis_type) t
      where c.n <= $2`,
    [scraperId, Math.round(ids.length * insightShare), ANALYSIS_TYPES, SEVERITIES],
  );
  progress(`${(insights.rowCount ?? 0).toLocaleString('en')} insights (${((Date.now() - started) / 1000).toFixed(0)} s)`);

  // Vacuum, not only analyze: PGlite has no autovacuum, and without the visibility map no index-only scan is chosen.
  for (const table of ['config_items', 'config_changes', 'config_analysis', 'config_relationships']) await pool.query(`vacuum analyze ${table}`);
  progress(`vacuumed and analysed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return {
    configs,
    changes,
    insights: insights.rowCount ?? 0,
    relationships: edges.rowCount ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
