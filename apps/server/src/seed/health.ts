import os from 'node:os';
import type pg from 'pg';
import { syncCanaryChecks } from '../modules/health';

export interface HealthDemoContext {
  adminId: string;
  /** The URL this server answers on, e.g. http://localhost:8080: the demo checks probe the server itself. */
  serverUrl: string;
}

const HISTORY_DAYS = 14;
const HISTORY_STEP_MINUTES = 10;

interface DemoCanary {
  name: string;
  description: string;
  icon: string;
  labels: Record<string, string>;
  schedule: string;
  spec: Record<string, unknown>;
}

function demoCanaries(serverUrl: string): DemoCanary[] {
  const server = new URL(serverUrl);
  const port = server.port === '' ? (server.protocol === 'https:' ? '443' : '80') : server.port;
  return [
    {
      name: 'opsdeck-self',
      description: 'The console probing its own endpoints',
      icon: 'http',
      labels: { team: 'platform', env: 'demo' },
      schedule: '@every 1m',
      spec: {
        http: [
          { name: 'opsdeck/healthz', url: `${serverUrl}/healthz`, responseCodes: [200], responseContent: 'ok', thresholdMillis: 2000 },
          { name: 'opsdeck/version', url: `${serverUrl}/api/version`, responseCodes: [200] },
        ],
        tcp: [{ name: 'opsdeck/port', endpoint: `${server.hostname}:${port}`, thresholdMillis: 1000 }],
        dns: [{ name: 'dns/localhost', query: 'localhost', querytype: 'A', minrecords: 1 }],
      },
    },
    {
      name: 'platform-basics',
      description: 'Database, scripts and folders on this host',
      icon: 'postgres',
      labels: { team: 'data', env: 'demo' },
      schedule: '@every 5m',
      spec: {
        http: [
          {
            name: 'database/reachable',
            url: `${serverUrl}/healthz`,
            responseCodes: [200],
            responseContent: 'ok',
            description: 'The console answers /healthz only after a query on its database succeeds',
          },
        ],
        exec: [
          {
            name: 'host/disk-space',
            script: 'df -P > df.txt; awk \'NR==2 { print "root filesystem " $5 " used" }\' df.txt',
            timeout: '10s',
            description: 'Keeps the whole df table as an artifact (the Artifacts tab)',
            artifacts: [{ path: 'df.txt' }],
          },
          { name: 'backup/nightly-job', script: 'echo "backup job failed: no space left on device" >&2; exit 1', description: 'Fails on purpose in the demo, so an incident can be opened from a failing check' },
        ],
        folder: [
          { name: 'host/tmp-folder', path: os.tmpdir(), description: 'The temporary folder exists' },
          { name: 'backup/archive-folder', path: '/var/backups/opsdeck', minCount: 1, maxAge: '1d', description: 'Fails on purpose in the demo: no backups are written here' },
        ],
      },
    },
    {
      name: 'edge',
      description: 'Network reachability from this host',
      icon: 'network',
      labels: { team: 'network', env: 'demo' },
      schedule: '@every 5m',
      spec: {
        icmp: [{ name: 'network/loopback', endpoint: '127.0.0.1', packetCount: 2, packetLossThreshold: 50 }],
        tcp: [{ name: 'network/legacy-service', endpoint: '127.0.0.1:1', description: 'Fails on purpose in the demo: nothing listens on port 1', thresholdMillis: 500 }],
      },
    },
  ];
}

/** Check names that fail today in the demo; the others pass with an occasional blip in their history. */
const FAILING = ['backup/nightly-job', 'backup/archive-folder', 'network/legacy-service'];
/** A passing check that failed once three hours ago: the one warning (recovered) over the dashboard's default day. */
const FLAPPED = 'opsdeck/version';

/**
 * Demo canaries whose checks hit things that exist on this machine (the server itself, a local port, DNS for
 * localhost, shell scripts, the server's database behind /healthz, folders), some passing and some
 * failing, with three weeks of history at 5-minute resolution inserted in one statement so the rollups fill by trigger.
 */
export async function seedHealthDemo(client: pg.PoolClient, ctx: HealthDemoContext): Promise<void> {
  const existing = await client.query("select 1 from canaries where name = 'opsdeck-self' and deleted_at is null");
  if ((existing.rowCount ?? 0) > 0) return;

  const canaryIds: string[] = [];
  for (const canary of demoCanaries(ctx.serverUrl)) {
    const inserted = await client.query<{ id: string }>(
      `insert into canaries (name, description, icon, labels, schedule, spec, created_by) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [canary.name, canary.description, canary.icon, JSON.stringify(canary.labels), canary.schedule, JSON.stringify({ schedule: canary.schedule, ...canary.spec }), ctx.adminId],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('canary insert returned no row');
    await syncCanaryChecks(client, id, { reschedule: false });
    canaryIds.push(id);
  }

  // Failing checks started failing two days ago; passing ones fail about 1 run in 200 before that, so that over the last
  // day only FLAPPED is a warning. Durations vary per type.
  await client.query(
    `insert into check_statuses (check_id, time, status, duration, message, error)
     select k.id, t.time, s.ok,
            (case k.type when 'http' then 40 when 'postgres' then 15 when 'exec' then 30 when 'icmp' then 1 else 5 end
              * (1 + random() * 3))::integer,
            case when s.ok then 'ok' else '' end,
            case when s.ok then null else 'demo failure' end
       from checks k
       cross join lateral (
         select date_trunc('minute', now()) - make_interval(mins => g * $2) as time
           from generate_series(1, ($3 * 1440 / $2)::integer) g
       ) t
       cross join lateral (
         select case when k.name = any($4) then t.time < now() - interval '2 days' and random() > 0.01
                     when k.name = $5 and t.time = date_trunc('minute', now()) - interval '3 hours' then false
                     else t.time >= now() - interval '2 days' or random() > 0.005 end as ok
       ) s
      where k.canary_id = any($1) and k.deleted_at is null`,
    [canaryIds, HISTORY_STEP_MINUTES, HISTORY_DAYS, FAILING, FLAPPED],
  );

  // The flip first (the transition trigger stamps last_runtime), then the latest run with the status unchanged.
  await client.query(
    `update checks k set status = case when k.name = any($2) then 'unhealthy' else 'healthy' end,
            last_runtime = case when k.name = any($2) then now() - interval '2 days' else now() - make_interval(days => $3) end
      where k.canary_id = any($1) and k.deleted_at is null`,
    [canaryIds, FAILING, HISTORY_DAYS],
  );
  await client.query(
    `update checks k set last_runtime = (select max(time) from check_statuses s where s.check_id = k.id), next_runtime = now()
      where k.canary_id = any($1) and k.deleted_at is null`,
    [canaryIds],
  );

  await client.query(
    `insert into job_history (name, resource_type, resource_id, status, success_count, error_count, duration_millis, hostname, time_start, time_end, details)
     select 'Canary', 'canary', c.id,
            case when bool_and(k.status = 'healthy') then 'SUCCESS' when bool_or(k.status = 'healthy') then 'WARNING' else 'FAILED' end,
            (count(*) filter (where k.status = 'healthy'))::integer, (count(*) filter (where k.status = 'unhealthy'))::integer,
            120, $2, now() - interval '1 minute', now(), jsonb_build_object('summary', jsonb_build_object('canary', c.name, 'checks', count(*)))
       from canaries c join checks k on k.canary_id = c.id and k.deleted_at is null
      where c.id = any($1)
      group by c.id, c.name`,
    [canaryIds, os.hostname()],
  );
}
