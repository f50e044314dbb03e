import { createHmac } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { fromDataException } from '../../platform/errors';
import { deriveSubkey } from '../../platform/secrets';
import type { PushBody, PushRow } from './protocol';

/**
 * Applies one pushed batch (ADR 0056) in one transaction. Every statement scopes its writes to the token's agent: rows
 * are created with that agent_id, links (a parent, a scraper, a job's resource, a change's item) name only rows of
 * that agent, and an upsert that meets a row of another agent or of this server (a forged or colliding id) leaves it
 * untouched. Consecutive rows of one kind are applied as one set-based statement, in batch
 * order, so ten thousand check results cost a handful of statements rather than ten thousand.
 */

export interface ApplyResult {
  applied: number;
  duplicate: boolean;
}

type Segment = { kind: PushRow['kind']; payloads: unknown[] };

function segments(rows: PushRow[]): Segment[] {
  const out: Segment[] = [];
  for (const row of rows) {
    const last = out[out.length - 1];
    if (last !== undefined && last.kind === row.kind) last.payloads.push(row.payload);
    else out.push({ kind: row.kind, payloads: [row.payload] });
  }
  return out;
}

async function applyCheckStatuses(client: pg.PoolClient, agentId: string, payloads: unknown[]): Promise<void> {
  const rows = JSON.stringify(payloads);
  await client.query(
    `insert into canaries (name, namespace, agent_id, source)
     select distinct r.canary, coalesce(r.namespace, 'default'), $1::uuid, 'Agent'
       from jsonb_to_recordset($2::jsonb) r(canary text, namespace text)
      where not exists (select 1 from canaries c where c.agent_id = $1 and c.name = r.canary and c.deleted_at is null)`,
    [agentId, rows],
  );
  await client.query(
    `insert into checks (canary_id, agent_id, type, name, description, endpoint, labels, spec)
     select distinct on (c.id, r.type, r.name) c.id, $1::uuid, r.type, r.name, r.description, r.endpoint,
            coalesce(r.labels, '{}'::jsonb), coalesce(r.spec, '{}'::jsonb)
       from jsonb_to_recordset($2::jsonb) r(canary text, type text, name text, description text, endpoint text, labels jsonb,
                                            spec jsonb)
       join canaries c on c.agent_id = $1 and c.name = r.canary and c.deleted_at is null
      order by c.id, r.type, r.name
     on conflict (canary_id, type, name) where deleted_at is null do nothing`,
    [agentId, rows],
  );
  await client.query(
    `with incoming as (
       select k.id as check_id, r.time, r.status, r.duration, r.message, r.error, r.details
         from jsonb_to_recordset($2::jsonb) r(canary text, type text, name text, time timestamptz, status boolean,
                                              duration integer, message text, error text, details jsonb)
         join canaries c on c.agent_id = $1 and c.name = r.canary and c.deleted_at is null
         join checks k on k.canary_id = c.id and k.agent_id = $1 and k.type = r.type and k.name = r.name and k.deleted_at is null
     ), inserted as (
       insert into check_statuses (check_id, time, status, duration, message, error, details)
       select check_id, time, status, duration, message, error, details from incoming
       on conflict (check_id, time) do nothing
       returning check_id, time, status, message, error
     ), latest as (
       select distinct on (check_id) check_id, time, status, message, error from inserted order by check_id, time desc
     ), prev as (
       select k.id, k.status from checks k join latest l on l.check_id = k.id
     ), upd as (
       update checks k
          set status = case when l.status then 'healthy' else 'unhealthy' end, last_runtime = l.time
         from latest l
        where k.id = l.check_id and (k.last_runtime is null or k.last_runtime <= l.time)
       returning k.id, k.status, k.canary_id, k.name, k.type, l.time, l.message, l.error
     )
     insert into event_queue (name, properties)
     select case when upd.status = 'healthy' then 'check.passed' else 'check.failed' end,
            jsonb_build_object('id', upd.id, 'check_id', upd.id, 'canary_id', upd.canary_id, 'name', upd.name, 'type', upd.type,
                               'status', upd.status, 'previous_status', prev.status, 'message', upd.message, 'error', upd.error,
                               'time', upd.time, 'agent_id', $1::uuid)
       from upd join prev on prev.id = upd.id
      where prev.status is distinct from upd.status`,
    [agentId, rows],
  );
}

/**
 * Job runs are the agent's own: filed under its agent_id, linked to a resource only when that resource is one this
 * agent owns (a server's or another agent's canary, scraper or topology would otherwise show the run as its own latest
 * job in every `*_with_status` view), and never dated in the future, where a row would head the Job History list and
 * outlive retention.
 */
async function applyJobHistory(client: pg.PoolClient, agentId: string, payloads: unknown[]): Promise<void> {
  await client.query(
    `insert into job_history (id, name, resource_type, resource_id, status, success_count, error_count, duration_millis,
                              hostname, time_start, time_end, details, agent_id, created_at)
     select distinct on (r.id) r.id, r.name, r.resource_type,
            case when case r.resource_type
                        when 'canary' then exists (select 1 from canaries x where x.id = r.resource_id and x.agent_id = $1)
                        when 'check' then exists (select 1 from checks x where x.id = r.resource_id and x.agent_id = $1)
                        when 'config_scraper' then exists (select 1 from config_scrapers x where x.id = r.resource_id and x.agent_id = $1)
                        when 'catalog_scraper' then exists (select 1 from config_scrapers x where x.id = r.resource_id and x.agent_id = $1)
                        when 'topology' then exists (select 1 from topologies x where x.id = r.resource_id and x.agent_id = $1)
                        when 'component' then exists (select 1 from components x where x.id = r.resource_id and x.agent_id = $1)
                        when 'config' then exists (select 1 from config_items x where x.id = r.resource_id and x.agent_id = $1)
                        else false
                      end
                 then r.resource_id end,
            r.status, coalesce(r.success_count, 0), coalesce(r.error_count, 0), r.duration_millis, r.hostname,
            least(coalesce(r.time_start, now()), now()), r.time_end, coalesce(r.details, '{}'::jsonb), $1::uuid,
            least(coalesce(r.created_at, now()), now())
       from jsonb_array_elements($2::jsonb) with ordinality e(doc, ord),
            jsonb_to_record(e.doc) r(id uuid, name text, resource_type text, resource_id uuid, status text,
            success_count integer, error_count integer, duration_millis integer, hostname text, time_start timestamptz,
            time_end timestamptz, details jsonb, created_at timestamptz)
      order by r.id, e.ord desc
     on conflict (id) do update
        set status = excluded.status, success_count = excluded.success_count, error_count = excluded.error_count,
            duration_millis = excluded.duration_millis, time_end = excluded.time_end, details = excluded.details
      where job_history.agent_id = $1`,
    [agentId, JSON.stringify(payloads)],
  );
}

async function applyConfigItems(client: pg.PoolClient, agentId: string, payloads: unknown[]): Promise<void> {
  const rows = JSON.stringify(payloads);
  await client.query(
    `insert into config_items (id, agent_id, external_id, type, config_class, name, description, status, health, ready,
                               tags, labels, properties, config, format, source, last_scraped_time, delete_reason,
                               created_at, deleted_at)
     select distinct on (r.id) r.id, $1::uuid, coalesce(r.external_id, '{}'), r.type, split_part(r.type, '::', 1), r.name,
            r.description, r.status, r.health, r.ready, coalesce(r.tags, '{}'::jsonb), coalesce(r.labels, '{}'::jsonb),
            coalesce(r.properties, '[]'::jsonb), r.config, r.format, r.source, r.last_scraped_time, r.delete_reason,
            coalesce(r.created_at, now()), r.deleted_at
       from jsonb_array_elements($2::jsonb) with ordinality e(doc, ord),
            jsonb_to_record(e.doc) r(id uuid, external_id text[], type text, name text, description text,
            status text, health text, ready boolean, tags jsonb, labels jsonb, properties jsonb, config jsonb, format text,
            source text, last_scraped_time timestamptz, delete_reason text, created_at timestamptz, deleted_at timestamptz)
      order by r.id, e.ord desc
     on conflict (id) do update
        set external_id = excluded.external_id, type = excluded.type, config_class = excluded.config_class,
            name = excluded.name, description = excluded.description, status = excluded.status, health = excluded.health,
            ready = excluded.ready, tags = excluded.tags, labels = excluded.labels, properties = excluded.properties,
            config = excluded.config, format = excluded.format, source = excluded.source,
            last_scraped_time = excluded.last_scraped_time, delete_reason = excluded.delete_reason,
            deleted_at = excluded.deleted_at
      where config_items.agent_id = $1`,
    [agentId, rows],
  );
  // A parent is linked only when it is one of this agent's items, after the insert so a parent pushed in the same
  // statement counts; a scraper only when it is one assigned to this agent.
  await client.query(
    `update config_items c
        set parent_id = case when exists (select 1 from config_items p where p.id = r.parent_id and p.agent_id = $1)
                             then r.parent_id else c.parent_id end,
            scraper_id = case when exists (select 1 from config_scrapers s where s.id = r.scraper_id and s.agent_id = $1)
                              then r.scraper_id else c.scraper_id end
       from jsonb_to_recordset($2::jsonb) r(id uuid, parent_id uuid, scraper_id uuid)
      where c.id = r.id and c.agent_id = $1
        and ((r.parent_id is not null and c.parent_id is distinct from r.parent_id)
             or (r.scraper_id is not null and c.scraper_id is distinct from r.scraper_id))`,
    [agentId, rows],
  );
}

async function applyConfigDeletes(client: pg.PoolClient, agentId: string, payloads: unknown[]): Promise<void> {
  await client.query(
    `update config_items c set deleted_at = coalesce(c.deleted_at, now())
       from jsonb_to_recordset($2::jsonb) r(id uuid)
      where c.id = r.id and c.agent_id = $1`,
    [agentId, JSON.stringify(payloads)],
  );
}

async function applyConfigChanges(client: pg.PoolClient, agentId: string, payloads: unknown[]): Promise<void> {
  await client.query(
    `insert into config_changes (id, config_id, external_change_id, change_type, severity, source, summary, diff, details,
                                 patches, fingerprint, count, first_observed, external_created_by, created_at)
     select distinct on (r.id) r.id, r.config_id, r.external_change_id, r.change_type, r.severity, r.source, r.summary, r.diff,
            r.details, r.patches, r.fingerprint, coalesce(r.count, 1), coalesce(r.first_observed, now()), r.external_created_by,
            coalesce(r.created_at, now())
       from jsonb_array_elements($2::jsonb) with ordinality e(doc, ord),
            jsonb_to_record(e.doc) r(id uuid, config_id uuid, external_change_id text, change_type text, severity text,
            source text, summary text, diff text, details jsonb, patches text, fingerprint text, count integer,
            first_observed timestamptz, external_created_by text, created_at timestamptz)
      where exists (select 1 from config_items c where c.id = r.config_id and c.agent_id = $1)
      order by r.id, e.ord desc
     on conflict (id) do update
        set count = excluded.count, details = excluded.details, summary = excluded.summary, diff = excluded.diff,
            patches = excluded.patches, created_at = excluded.created_at
      where exists (select 1 from config_items c where c.id = config_changes.config_id and c.agent_id = $1)`,
    [agentId, JSON.stringify(payloads)],
  );
}

const APPLIERS: Record<PushRow['kind'], (client: pg.PoolClient, agentId: string, payloads: unknown[]) => Promise<void>> = {
  check_status: applyCheckStatuses,
  job_history: applyJobHistory,
  config_item: applyConfigItems,
  config_item_deleted: applyConfigDeletes,
  config_change: applyConfigChanges,
};

/** The name of upstream's own job_history rows for what agents push: one row per agent per hour. */
export const INGESTION_JOB = 'AgentPushIngestion';

const HOUR_MS = 60 * 60 * 1000;

/** The sub-key that names ingestion rows; derive it once per process. */
export function ingestionRowKey(secretKey: Buffer): Buffer {
  return deriveSubkey(secretKey, 'agent-ingestion-row');
}

/**
 * The id of an agent's ingestion row for one hour, keyed so that nobody without the server key can compute it: an
 * agent that could would push a job row of its own under that id first, and every later batch of the agent it names
 * would be counted in a row the pusher owns and may rewrite.
 */
function ingestionRowId(rowKey: Buffer, agentId: string, hour: Date): string {
  const hex = createHmac('sha256', rowKey).update(`${agentId}\u0000${hour.toISOString()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Adds one batch to the agent's ingestion row of the current hour, so agents pushing every few seconds leave 24 rows
 * a day each rather than thousands; a refused batch counts as an error. Only upstream's own row for this agent is
 * ever updated (no agent_id, this name and resource).
 */
async function recordIngestion(
  db: pg.Pool | pg.PoolClient,
  rowKey: Buffer,
  agentId: string,
  rows: number,
  startedAt: number,
  error: string | null,
): Promise<void> {
  const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
  await db.query(
    `insert into job_history (id, name, resource_type, resource_id, status, success_count, error_count, duration_millis, hostname,
                              time_start, time_end, details)
     values ($7::uuid, '${INGESTION_JOB}', 'agent', $1::uuid, case when $4::text is null then 'SUCCESS' else 'FAILED' end,
             $2, case when $4::text is null then 0 else 1 end, $3, $5, $6::timestamptz, now(),
             jsonb_build_object('batches', 1) || case when $4::text is null then '{}'::jsonb else jsonb_build_object('errors', jsonb_build_array($4::text)) end)
     on conflict (id) do update set
       success_count = job_history.success_count + excluded.success_count,
       error_count = job_history.error_count + excluded.error_count,
       duration_millis = coalesce(job_history.duration_millis, 0) + excluded.duration_millis,
       time_end = excluded.time_end,
       status = case when job_history.error_count + excluded.error_count = 0 then 'SUCCESS'
                     when job_history.success_count + excluded.success_count = 0 then 'FAILED' else 'WARNING' end,
       details = job_history.details
         || jsonb_build_object('batches', coalesce((job_history.details ->> 'batches')::integer, 0) + 1)
         || case when excluded.details ? 'errors' and jsonb_array_length(coalesce(job_history.details -> 'errors', '[]'::jsonb)) < 20
                 then jsonb_build_object('errors', coalesce(job_history.details -> 'errors', '[]'::jsonb) || (excluded.details -> 'errors'))
                 else '{}'::jsonb end
     where job_history.agent_id is null and job_history.name = '${INGESTION_JOB}' and job_history.resource_id = $1::uuid`,
    [agentId, rows, Date.now() - startedAt, error, hostname(), hour.toISOString(), ingestionRowId(rowKey, agentId, hour)],
  );
}

export async function applyBatch(pool: pg.Pool, rowKey: Buffer, agentId: string, body: PushBody): Promise<ApplyResult> {
  const startedAt = Date.now();
  let failure: unknown;
  const client = await pool.connect();
  try {
    await client.query('begin');
    // One agent's batches apply one at a time, so two in flight cannot both create the same canary.
    await client.query('select pg_advisory_xact_lock(hashtextextended($1::text, 0))', [agentId]);
    const recorded = await client.query(
      `insert into agent_push_batches (agent_id, batch_id, row_count) values ($1, $2, $3) on conflict do nothing`,
      [agentId, body.batchId, body.rows.length],
    );
    if (recorded.rowCount === 0) {
      await client.query('rollback');
      return { applied: 0, duplicate: true };
    }
    for (const segment of segments(body.rows)) await APPLIERS[segment.kind](client, agentId, segment.payloads);
    await client.query('update agents set last_received = now() where id = $1', [agentId]);
    await recordIngestion(client, rowKey, agentId, body.rows.length, startedAt, null);
    await client.query('commit');
    return { applied: body.rows.length, duplicate: false };
  } catch (error) {
    await client.query('rollback');
    failure = error;
  } finally {
    client.release();
  }
  // A value the database refuses (a bad timestamp, a number out of range) is the agent's 400, counted on its row.
  const refused = fromDataException(failure);
  if (refused === null) throw failure;
  await recordIngestion(pool, rowKey, agentId, 0, startedAt, `batch ${body.batchId}: ${refused.details ?? refused.message}`);
  throw refused;
}
