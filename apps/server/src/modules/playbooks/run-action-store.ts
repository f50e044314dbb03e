import type pg from 'pg';
import type { PlaybookActionResult } from '@opsdeck/shared';
import type { CollectedArtifact } from '../health';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The action rows of a run a worker holds (playbook_run_actions). Every write is guarded by the run's lease
 * (`locked_by = owner`), so a worker that lost its run writes nothing more.
 */

export interface RunActionRow {
  id: string;
  position: number;
  name: string;
  status: string;
  error: string | null;
  result: PlaybookActionResult | null;
  /** A sleeping action whose time has come. */
  due: boolean;
}

/** An action's end as stored: a runner's outcome, or cancelled. */
export interface RecordedOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  result: PlaybookActionResult;
  error?: string;
  artifacts?: CollectedArtifact[];
}

/** jsonb and text refuse NUL, which a script's output may hold. */
function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutNul(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutNul(item)])) as T;
  }
  return value;
}

export async function loadRunActions(client: Queryable, runId: string): Promise<RunActionRow[]> {
  const found = await client.query<RunActionRow>(
    `select id, position, name, status, error, result, scheduled_time <= now() as due
       from playbook_run_actions where playbook_run_id = $1 order by position`,
    [runId],
  );
  return found.rows;
}

export interface NewRunAction {
  runId: string;
  name: string;
  position: number;
  /** running starts now; skipped and failed (before it ran) also end now. */
  status: 'running' | 'skipped' | 'failed';
  error: string | null;
}

/** Creates the action's row while `owner` still holds the run; null when it does not (cancelled or lost). */
export async function insertRunAction(client: Queryable, owner: string, action: NewRunAction): Promise<string | null> {
  const inserted = await client.query<{ id: string }>(
    `insert into playbook_run_actions (playbook_run_id, name, position, status, start_time, end_time, error)
     select $1, $2, $3, $4::text, now(), case when $4::text = 'running' then null else now() end, $5
      where exists (select 1 from playbook_runs where id = $1 and locked_by = $6 and status = 'running')
     returning id`,
    [action.runId, action.name, action.position, action.status, action.error, owner],
  );
  return inserted.rows[0]?.id ?? null;
}

/** A sleeping action that is due starts running; false when `owner` no longer holds its running run. */
export async function markActionRunning(client: Queryable, actionId: string, owner: string): Promise<boolean> {
  const updated = await client.query(
    `update playbook_run_actions a set status = 'running', start_time = now()
      where a.id = $1 and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $2 and r.status = 'running')`,
    [actionId, owner],
  );
  return (updated.rowCount ?? 0) > 0;
}

/** Stores how the action ended; false when `owner` no longer holds its run. */
/**
 * Stores how the action ended, with the files it kept, in one statement; false when `owner` no longer holds its run
 * (then nothing is stored).
 */
export async function recordActionOutcome(client: Queryable, actionId: string, owner: string, outcome: RecordedOutcome): Promise<boolean> {
  const artifacts = outcome.artifacts ?? [];
  const stored = await client.query<{ stored: string }>(
    `with updated as (
       update playbook_run_actions a set status = $2, result = $3, error = $4, end_time = now()
        where a.id = $1 and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $5)
       returning a.id),
     kept as (
       insert into exec_artifacts (playbook_run_action_id, path, size, checksum, content)
       select u.id, f.path, f.size, f.checksum, f.content
         from updated u, unnest($6::text[], $7::bigint[], $8::text[], $9::bytea[]) as f(path, size, checksum, content)
       returning 1)
     select count(*)::text as stored from updated`,
    [
      actionId,
      outcome.status,
      JSON.stringify(withoutNul(outcome.result)),
      outcome.error === undefined ? null : withoutNul(outcome.error),
      owner,
      artifacts.map((artifact) => artifact.path),
      artifacts.map((artifact) => artifact.size),
      artifacts.map((artifact) => artifact.checksum),
      artifacts.map((artifact) => artifact.content),
    ],
  );
  return stored.rows[0]?.stored === '1';
}

/** Fails with `error` the actions of a run taken over that its vanished worker left running. */
export async function failRunningActions(client: Queryable, runId: string, owner: string, error: string): Promise<void> {
  await client.query(
    `update playbook_run_actions a set status = 'failed', error = $3, end_time = now()
      where a.playbook_run_id = $1 and a.status = 'running'
        and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $2)`,
    [runId, owner, error],
  );
}
