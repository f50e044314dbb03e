import type pg from 'pg';
import type { TableInsert, TableRow } from '@opsdeck/shared';

/** How the request was authenticated: the audit_log.via column's checked values. */
export type AuditVia = TableRow<'audit_log'>['via'];

/**
 * What the hook and the purge write as one audit_log row: every column but the generated id, each one given, so a
 * row never relies on a column default. The web reads the rows back as `AuditEntry`.
 */
export type AuditRecordInput = Required<Omit<TableInsert<'audit_log'>, 'id'>>;

export interface AuditWriterOptions {
  /** Rows waiting beyond this are written at once rather than after the delay. */
  batchSize?: number;
  /** How long a row may wait for others to share its insert. */
  delayMs?: number;
  /** Rows kept while the database does not answer; the oldest beyond it are dropped (and reported). */
  maxQueued?: number;
  onError?: (error: unknown, dropped: number) => void;
}

const COLUMNS = [
  'at timestamptz',
  'actor_id uuid',
  'actor_name text',
  'via text',
  'api_token_id uuid',
  'method text',
  'route text',
  'resource text',
  'resource_id text',
  'resource_ids text[]',
  'action text',
  'changed_fields text[]',
  'changes jsonb',
  'status smallint',
  'request_id text',
] as const;
const NAMES = COLUMNS.map((column) => column.split(' ')[0]).join(', ');

/**
 * Writes audit rows after their responses have gone, several requests to one insert: recording a write costs the
 * request nothing it waits for, and a burst of writes shares its inserts. Rows wait at most `delayMs`; `flush` writes
 * everything now (the server calls it when it closes, the tests before they look).
 */
export class AuditWriter {
  private queue: AuditRecordInput[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly delayMs: number;
  private readonly maxQueued: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: AuditWriterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.delayMs = options.delayMs ?? 200;
    this.maxQueued = options.maxQueued ?? 20_000;
  }

  add(entry: AuditRecordInput): void {
    this.queue.push(entry);
    if (this.queue.length > this.maxQueued) {
      const dropped = this.queue.length - this.maxQueued;
      this.queue.splice(0, dropped);
      this.options.onError?.(new Error('audit rows were dropped: the database is not keeping up'), dropped);
    }
    if (this.queue.length >= this.batchSize) this.schedule(0);
    else if (this.timer === null) this.schedule(this.delayMs);
  }

  /** Writes every queued row; resolves once they are in the table (or their insert failed and was reported). */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.drain();
  }

  private schedule(delay: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, delay);
    this.timer.unref();
  }

  /** Inserts run one after another, so rows land in the order their requests finished. */
  private drain(): Promise<void> {
    this.writing = this.writing.then(async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.batchSize);
        try {
          await insertAuditRows(this.pool, batch);
        } catch (error) {
          this.options.onError?.(error, batch.length);
        }
      }
    });
    return this.writing;
  }
}

/** One statement for any number of rows; every value is bound inside the one JSON parameter. */
export async function insertAuditRows(db: Pick<pg.Pool, 'query'>, rows: readonly AuditRecordInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(`insert into audit_log (${NAMES}) select ${NAMES} from jsonb_to_recordset($1::jsonb) as r(${COLUMNS.join(', ')})`, [JSON.stringify(rows)]);
}
