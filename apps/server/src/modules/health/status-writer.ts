import type pg from 'pg';

/** One finished run to store: its check (leased by `owner`), when it started, its outcome and when the check is due next. */
export interface StatusWrite {
  checkId: string;
  startedAt: Date;
  nextRuntime: Date;
  pass: boolean;
  durationMs: number;
  message: string;
  error: string | null;
  details: unknown;
}

/** The check's status before this run; null when the lease was lost (another worker's result counts instead). */
export interface WrittenStatus {
  previous: string | null;
}

/** Runs written in one statement at most: the parameter stays well under a megabyte of JSON at typical messages. */
export const MAX_STATUS_BATCH = 200;
/** Longest message or error stored with a status. */
const TEXT_CUT = 10_000;

interface Pending {
  write: StatusWrite;
  resolve(written: WrittenStatus | null): void;
  reject(error: unknown): void;
}

/**
 * Writes the results of a worker's check runs, one statement per batch: each check's state (its lease released), the
 * status row (the rollups follow by trigger) and, on a transition, an event. A batch is whatever finished while the
 * statement before it ran, so a lone run is written at once and a busy worker writes many per round trip (#33).
 * A batch the database refuses is written again one run at a time, so one bad row costs no other run its result.
 */
export class StatusWriter {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly owner: string,
  ) {}

  write(write: StatusWrite): Promise<WrittenStatus | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_STATUS_BATCH);
        try {
          this.settle(batch, await this.store(batch.map((pending) => pending.write)));
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error);
            continue;
          }
          for (const pending of batch) {
            try {
              this.settle([pending], await this.store([pending.write]));
            } catch (alone) {
              pending.reject(alone);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private settle(batch: readonly Pending[], written: ReadonlyMap<string, WrittenStatus>): void {
    for (const pending of batch) pending.resolve(written.get(pending.write.checkId) ?? null);
  }

  private async store(writes: readonly StatusWrite[]): Promise<Map<string, WrittenStatus>> {
    const rows = writes.map((write) => ({
      id: write.checkId,
      status: write.pass ? 'healthy' : 'unhealthy',
      started: write.startedAt.toISOString(),
      next: write.nextRuntime.toISOString(),
      pass: write.pass,
      duration: write.durationMs,
      message: write.message.slice(0, TEXT_CUT),
      error: write.error === null ? null : write.error.slice(0, TEXT_CUT),
      details: write.details ?? null,
    }));
    const result = await this.pool.query<{ id: string; previous: string | null }>(
      `with input as (
         select * from jsonb_to_recordset($1::jsonb)
           as r(id uuid, status text, started timestamptz, next timestamptz, pass boolean, duration integer, message text,
                error text, details jsonb)
       ), prev as (
         select c.id, c.status from checks c join input i on i.id = c.id
       ), upd as (
         update checks c set status = i.status, last_runtime = i.started, next_runtime = i.next, lease_owner = null, lease_until = null
           from input i
          where c.id = i.id and c.lease_owner = $2
         returning c.id, c.status, c.canary_id, c.name, c.type
       ), ins as (
         insert into check_statuses (check_id, time, status, duration, message, error, details)
         select i.id, i.started, i.pass, i.duration, i.message, i.error, i.details
           from input i join upd on upd.id = i.id
          order by i.id
         on conflict (check_id, time) do nothing
       ), ev as (
         insert into event_queue (name, properties)
         select case when upd.status = 'healthy' then 'check.passed' else 'check.failed' end,
                jsonb_build_object('id', upd.id, 'check_id', upd.id, 'canary_id', upd.canary_id, 'name', upd.name, 'type', upd.type,
                                   'status', upd.status, 'previous_status', prev.status, 'message', i.message, 'error', i.error,
                                   'time', i.started)
           from upd join prev on prev.id = upd.id join input i on i.id = upd.id
          where prev.status is distinct from upd.status
       )
       select upd.id, prev.status as previous from upd join prev on prev.id = upd.id`,
      [JSON.stringify(rows), this.owner],
    );
    return new Map(result.rows.map((row) => [row.id, { previous: row.previous }]));
  }
}
