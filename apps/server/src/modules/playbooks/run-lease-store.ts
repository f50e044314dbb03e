import type pg from 'pg';
import type { PlaybookWebhookRequest } from '@opsdeck/shared';
import { inTransaction } from '../../db/transaction';
import { cancelUnfinishedActions, recordRunEnd } from './run-store';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The leases of playbook runs (playbook_runs.locked_by, locked_until) and every state a worker moves a run it holds
 * to. Each write is guarded by the lease (`locked_by = owner`), so a worker that lost its run writes nothing more.
 * Lease lengths are in milliseconds.
 */

export interface ClaimedRun {
  id: string;
  previous_status: 'pending' | 'scheduled' | 'running' | 'cancelled';
  /** Its last worker's lease expired while it held the run. */
  taken_over: boolean;
}

/**
 * Leases to `owner` up to `limit` runs: those due (pending, or scheduled and whose time has come), and those whose
 * worker stopped renewing its lease, running or cancelled (a run taken over counts one more attempt). A cancelled run
 * stays cancelled, for its new worker to close.
 */
export async function claimRuns(client: Queryable, limit: number, owner: string, leaseMs: number): Promise<ClaimedRun[]> {
  const claimed = await client.query<ClaimedRun>(
    `with picked as (
       select id, status, status in ('running', 'cancelled') as taken_over
         from playbook_runs
        where (status in ('pending', 'scheduled') and scheduled_time <= now())
           or (status = 'running' and (locked_until is null or locked_until < now()))
           or (status = 'cancelled' and locked_by is not null and locked_until < now())
        order by scheduled_time
        limit $1
        for update skip locked
     )
     update playbook_runs r
        set status = case when picked.status = 'cancelled' then 'cancelled' else 'running' end,
            start_time = coalesce(r.start_time, now()),
            locked_by = $2,
            locked_until = now() + make_interval(secs => $3::double precision / 1000),
            attempts = r.attempts + case when picked.taken_over then 1 else 0 end
       from picked
      where r.id = picked.id
     returning r.id, picked.status as previous_status, picked.taken_over`,
    [limit, owner, leaseMs],
  );
  return claimed.rows;
}

/** Extends `owner`'s lease on the run; the run's status (a cancel made by another process shows here), or null when the lease is lost. */
export async function renewRunLease(client: Queryable, runId: string, owner: string, leaseMs: number): Promise<string | null> {
  const renewed = await client.query<{ status: string }>(
    `update playbook_runs set locked_until = now() + make_interval(secs => $3::double precision / 1000)
      where id = $1 and locked_by = $2 returning status`,
    [runId, owner, leaseMs],
  );
  return renewed.rows[0]?.status ?? null;
}

export interface HeldRun {
  id: string;
  playbook_id: string;
  playbook_name: string;
  playbook_title: string | null;
  /** The spec the run was requested with, else the playbook's (a run stored before runs kept it). */
  spec: unknown;
  parameters: Record<string, string>;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  created_by: string | null;
  /** Times the run was taken over from a worker that vanished. */
  attempts: number;
  /** The webhook request that started it, if one did. */
  request: PlaybookWebhookRequest | null;
}

/** The running run `owner` holds, with its playbook; null when it holds it no longer. */
export async function loadHeldRun(client: Queryable, runId: string, owner: string): Promise<HeldRun | null> {
  const found = await client.query<HeldRun>(
    `select r.id, r.playbook_id, p.name as playbook_name, p.title as playbook_title, coalesce(r.spec, p.spec) as spec,
            r.parameters, r.config_id, r.component_id, r.check_id, r.created_by, r.attempts, r.request
       from playbook_runs r join playbooks p on p.id = r.playbook_id
      where r.id = $1 and r.locked_by = $2 and r.status = 'running'`,
    [runId, owner],
  );
  return found.rows[0] ?? null;
}

/** A delayed action to create sleeping, or the id of the sleeping one whose time has not come. */
export type Sleep = { name: string; position: number; delayMs: number } | { actionId: string };

/**
 * Puts the run to sleep until its delayed action is due: the action's row sleeps (created now, or as it is) and the
 * run is released as `scheduled` for then, so no worker holds it while it waits. False when `owner` no longer holds it.
 */
export async function sleepRun(pool: pg.Pool, runId: string, owner: string, sleep: Sleep): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const held = await client.query(`select 1 from playbook_runs where id = $1 and locked_by = $2 and status = 'running' for update`, [runId, owner]);
    if (held.rowCount === 0) return false;
    const due = await client.query<{ scheduled_time: string }>(
      'actionId' in sleep
        ? `select scheduled_time from playbook_run_actions where id = $1`
        : `insert into playbook_run_actions (playbook_run_id, name, position, status, scheduled_time)
           values ($1, $2, $3, 'sleeping', now() + make_interval(secs => $4::double precision / 1000)) returning scheduled_time`,
      'actionId' in sleep ? [sleep.actionId] : [runId, sleep.name, sleep.position, sleep.delayMs],
    );
    await client.query(
      `update playbook_runs set status = 'scheduled', scheduled_time = $2, locked_by = null, locked_until = null where id = $1`,
      [runId, due.rows[0]?.scheduled_time],
    );
    return true;
  });
}

/** Hands a running run back as pending (its server is stopping), so the next worker goes on with it. */
export async function handBackRun(client: Queryable, runId: string, owner: string): Promise<void> {
  await client.query(
    `update playbook_runs set status = 'pending', locked_by = null, locked_until = null
      where id = $1 and locked_by = $2 and status = 'running'`,
    [runId, owner],
  );
}

/** A run that ended: its final status and its seconds from start to end (null when it has neither). */
export interface EndedRun {
  status: string;
  seconds: number | null;
}

const ENDED_RUN_RETURNING = `returning status, extract(epoch from (end_time - coalesce(start_time, created_at)))::float8 as seconds`;

/**
 * Ends the running run `owner` holds, with its job_history row and event (recordRunEnd) in the same transaction:
 * completed when no action failed, failed when one did or `error` says why the run itself failed. Null when `owner`
 * no longer holds it running (it was cancelled, or lost).
 */
export async function finishRun(pool: pg.Pool, runId: string, owner: string, error: string | null): Promise<EndedRun | null> {
  return inTransaction(pool, async (client) => {
    const updated = await client.query<EndedRun>(
      `update playbook_runs r
          set status = case when $3::text is not null
                              or exists (select 1 from playbook_run_actions a where a.playbook_run_id = r.id and a.status = 'failed')
                            then 'failed' else 'completed' end,
              error = $3, end_time = now(), locked_by = null, locked_until = null
        where r.id = $1 and r.locked_by = $2 and r.status = 'running'
       ${ENDED_RUN_RETURNING}`,
      [runId, owner, error],
    );
    const ended = updated.rows[0] ?? null;
    if (ended !== null) await recordRunEnd(client, runId);
    return ended;
  });
}

/**
 * Closes a cancelled run `owner` holds: what had not finished is cancelled, and the run's end recorded, in one
 * transaction. Null when `owner` does not hold it cancelled.
 */
export async function closeCancelledRun(pool: pg.Pool, runId: string, owner: string): Promise<EndedRun | null> {
  return inTransaction(pool, async (client) => {
    const updated = await client.query<EndedRun>(
      `update playbook_runs set locked_by = null, locked_until = null, end_time = coalesce(end_time, now())
        where id = $1 and locked_by = $2 and status = 'cancelled'
       ${ENDED_RUN_RETURNING}`,
      [runId, owner],
    );
    const ended = updated.rows[0] ?? null;
    if (ended === null) return null;
    await cancelUnfinishedActions(client, runId);
    await recordRunEnd(client, runId);
    return ended;
  });
}
