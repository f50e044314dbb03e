import os from 'node:os';
import type pg from 'pg';
import { seededFailure } from './seeded-failure';

type Queryable = Pick<pg.PoolClient, 'query'>;

type ResourceTable = 'canaries' | 'config_scrapers' | 'topologies' | 'playbooks' | 'agents';

/** One past run; `resource` names the demo entity it ran for, looked up by name in `table`. */
interface DemoJob {
  name: string;
  resourceType: string;
  resource: { table: ResourceTable; name: string } | null;
  status: 'SUCCESS' | 'WARNING' | 'FAILED' | 'STOPPED';
  /** How long before now the run started. */
  startedMinutesAgo: number;
  durationMillis: number;
  successCount: number;
  errorCount: number;
  details: Record<string, unknown>;
  /** The run was an agent's, pushed upstream. */
  agent?: string;
}

const AWS_DENIED = seededFailure('aws: AccessDenied: not authorized to perform ec2:DescribeInstances');

/**
 * Past runs the live schedulers would not produce in a fresh demo: long ones (the run duration filter starts at 15 s),
 * failures with repeated errors (the failed-count cell shows the most common), scrape summaries and summaries for the
 * details modal, a run without details, and one older than the default two days.
 */
export const DEMO_JOBS: readonly DemoJob[] = [
  {
    name: 'Scraper',
    resourceType: 'config_scraper',
    resource: { table: 'config_scrapers', name: 'demo-estate' },
    status: 'FAILED',
    startedMinutesAgo: 360,
    durationMillis: 25_400,
    successCount: 3,
    errorCount: 3,
    details: {
      errors: [AWS_DENIED, AWS_DENIED, seededFailure('azure: subscription 7f0c… not found')],
      scrape_summary: { types: { 'AWS::EC2::Instance': { added: 0, updated: 3, unchanged: 0, deleted: 0 } }, changes: 3, insights: { opened: 0, resolved: 0 }, errors: [] },
    },
  },
  {
    name: 'Scraper',
    resourceType: 'config_scraper',
    resource: { table: 'config_scrapers', name: 'demo-estate' },
    status: 'SUCCESS',
    startedMinutesAgo: 180,
    durationMillis: 42_100,
    successCount: 18,
    errorCount: 0,
    details: {
      scrape_summary: {
        types: { 'AWS::EC2::Instance': { added: 2, updated: 9, unchanged: 5, deleted: 0 }, 'Kubernetes::Node': { added: 0, updated: 0, unchanged: 2, deleted: 0 } },
        changes: 11,
        insights: { opened: 1, resolved: 0 },
        errors: [],
      },
    },
  },
  {
    name: 'Topology',
    resourceType: 'topology',
    resource: { table: 'topologies', name: 'Platform' },
    status: 'WARNING',
    startedMinutesAgo: 300,
    durationMillis: 18_250,
    successCount: 12,
    errorCount: 1,
    details: { errors: [seededFailure('lookup configs matched nothing for component payments-db')], summary: { components: 12 } },
  },
  {
    name: 'Topology',
    resourceType: 'topology',
    resource: { table: 'topologies', name: 'Platform' },
    status: 'SUCCESS',
    startedMinutesAgo: 240,
    durationMillis: 3_200,
    successCount: 12,
    errorCount: 0,
    details: {},
  },
  {
    name: 'PlaybookRun',
    resourceType: 'playbook',
    resource: { table: 'playbooks', name: 'restart-deployment' },
    status: 'FAILED',
    startedMinutesAgo: 1_440,
    durationMillis: 65_000,
    successCount: 1,
    errorCount: 1,
    details: { errors: [seededFailure('rollout: deadline exceeded waiting for 3 replicas')] },
  },
  {
    name: 'Canary',
    resourceType: 'canary',
    resource: { table: 'canaries', name: 'platform-basics' },
    status: 'FAILED',
    startedMinutesAgo: 120,
    durationMillis: 8_300,
    successCount: 2,
    errorCount: 1,
    details: { errors: [seededFailure('backup/nightly-job: backup job failed: no space left on device')], summary: { canary: 'platform-basics', checks: 3 } },
  },
  {
    name: 'RetentionCleanup',
    resourceType: 'retention',
    resource: null,
    status: 'SUCCESS',
    startedMinutesAgo: 720,
    durationMillis: 1_500,
    successCount: 412,
    errorCount: 0,
    details: { summary: { deleted: { job_history: 400, event_queue: 12, check_statuses: 0 } } },
  },
  {
    name: 'AgentPushIngestion',
    resourceType: 'agent',
    resource: { table: 'agents', name: 'edge-eu-west' },
    status: 'SUCCESS',
    startedMinutesAgo: 90,
    durationMillis: 16_800,
    successCount: 250,
    errorCount: 0,
    details: { summary: { batches: 5, check_statuses: 240, config_items: 10 } },
    agent: 'edge-eu-west',
  },
  {
    name: 'Scraper',
    resourceType: 'config_scraper',
    resource: { table: 'config_scrapers', name: 'demo-estate' },
    status: 'SUCCESS',
    startedMinutesAgo: 5 * 1_440,
    durationMillis: 31_000,
    successCount: 16,
    errorCount: 0,
    details: { scrape_summary: { types: {}, changes: 0, insights: { opened: 0, resolved: 0 }, errors: [] } },
  },
];

async function idOf(client: Queryable, table: ResourceTable, name: string): Promise<string | null> {
  // `table` is one of a fixed set of literals, never user input.
  const row = await client.query<{ id: string }>(`select id from ${table} where name = $1 and deleted_at is null order by created_at limit 1`, [name]);
  return row.rows[0]?.id ?? null;
}

/** The demo's past background runs for the Job History page (spec 001 §2.7); runs whose resource is missing are skipped. */
export async function seedJobsDemo(client: Queryable): Promise<number> {
  let inserted = 0;
  for (const job of DEMO_JOBS) {
    const resourceId = job.resource === null ? null : await idOf(client, job.resource.table, job.resource.name);
    if (job.resource !== null && resourceId === null) continue;
    const agentId = job.agent === undefined ? null : await idOf(client, 'agents', job.agent);
    await client.query(
      `insert into job_history (name, resource_type, resource_id, status, success_count, error_count, duration_millis, hostname,
                                time_start, time_end, details, agent_id, created_at, updated_at)
       select $1, $2, $3, $4, $5, $6, $7, $8, t.start, t.finish, $10, $11, t.finish, t.finish
         from (select now() - make_interval(mins => $9) as start,
                      now() - make_interval(mins => $9) + make_interval(secs => $7::double precision / 1000) as finish) t`,
      [
        job.name,
        job.resourceType,
        resourceId,
        job.status,
        job.successCount,
        job.errorCount,
        job.durationMillis,
        os.hostname(),
        job.startedMinutesAgo,
        JSON.stringify(job.details),
        agentId,
      ],
    );
    inserted += 1;
  }
  return inserted;
}
