import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PushRow } from '../modules/agent-push/protocol';

/**
 * The agent's outbox (ADR 0056). Triggers copy every result into agent_outbox in the transaction that produced it; they
 * exist only in an agent's own database, so a normal server's inserts pay nothing for them.
 */
const CAPTURED: ReadonlyArray<{ table: string; events: string }> = [
  { table: 'check_statuses', events: 'insert' },
  { table: 'job_history', events: 'insert or update' },
  { table: 'config_items', events: 'insert or update or delete' },
  { table: 'config_changes', events: 'insert or update' },
];

export async function installOutboxTriggers(pool: pg.Pool): Promise<void> {
  for (const { table, events } of CAPTURED) {
    await pool.query(
      `create or replace trigger agent_outbox_${table} after ${events} on ${table}
         for each row execute function agent_outbox_capture()`,
    );
  }
}

export interface OutboxBatch {
  batchId: string;
  rows: PushRow[];
}

/**
 * The batch to send next: the one formed earlier and not yet acknowledged (same id, so upstream can tell a resend), or
 * a new one of the oldest rows. Only one batch exists at a time, so batches always leave in seq order.
 */
export async function nextBatch(pool: pg.Pool, maxRows: number): Promise<OutboxBatch | null> {
  const pending = await pool.query<{ batch_id: string }>(
    'select batch_id from agent_outbox where batch_id is not null and refused_at is null order by seq limit 1',
  );
  let batchId = pending.rows[0]?.batch_id;
  if (batchId === undefined) {
    const formed = randomUUID();
    const marked = await pool.query(
      `update agent_outbox set batch_id = $1
        where seq in (select seq from agent_outbox where batch_id is null order by seq limit $2)`,
      [formed, maxRows],
    );
    if ((marked.rowCount ?? 0) === 0) return null;
    batchId = formed;
  }
  const rows = await pool.query<PushRow>('select kind, payload from agent_outbox where batch_id = $1 order by seq', [batchId]);
  return { batchId, rows: rows.rows };
}

export async function acknowledge(pool: pg.Pool, batchId: string): Promise<void> {
  await pool.query('delete from agent_outbox where batch_id = $1', [batchId]);
}

/** Sets a batch upstream refused aside: kept with upstream's answer, never sent again, no longer in the way. */
export async function refuse(pool: pg.Pool, batchId: string, refusal: string): Promise<void> {
  await pool.query('update agent_outbox set refused_at = now(), refusal = $2 where batch_id = $1', [batchId, refusal.slice(0, 4000)]);
}

/** Rows still to deliver (refused ones excluded). */
export async function outboxSize(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: number }>('select count(*)::int as n from agent_outbox where refused_at is null');
  return result.rows[0]?.n ?? 0;
}
