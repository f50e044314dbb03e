import pg from 'pg';

/**
 * Autovacuum for the embedded database (ADR 0080). PGlite runs PostgreSQL in single-user mode, where no autovacuum
 * launcher exists: every row a scrape replaces or deletes stays as a dead tuple in the table and in each of its indexes,
 * and the planner's statistics stay those of the last explicit ANALYZE. Measured on the bench database after three
 * full scrapes of 100,000 items (inserted, then deleted), the changes list took 564 ms instead of 127 and the ranked
 * search 665 ms instead of 235, until a VACUUM ANALYZE. This does what the launcher would: it reads the activity
 * counters PostgreSQL keeps for each table (they live for the process; a restart starts them from zero) and vacuums or
 * analyzes the tables past PostgreSQL's own default thresholds. On PostgreSQL proper the server's autovacuum does it
 * and this never starts.
 */

/** PostgreSQL's defaults: autovacuum_vacuum_threshold and _scale_factor, the insert ones, and the analyze ones. */
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
const INSERT_VACUUM_BASE = 1000;
const INSERT_VACUUM_SCALE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;

/** autovacuum_naptime's default: how often the counters are read. */
export const EMBEDDED_VACUUM_POLL_MS = 60_000;

export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
  insertedSinceVacuum: number;
}

export interface TableWork {
  table: string;
  /** VACUUM (with ANALYZE when `analyze` is also due); otherwise ANALYZE alone. */
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The tables past a threshold. Dead tuples call for a vacuum, as do many inserts: a vacuum sets the visibility map an
 * index-only scan needs (the changes list and summary read config_changes that way), and PostgreSQL 13 added the insert
 * threshold for that reason.
 */
export function dueTables(activity: readonly TableActivity[]): TableWork[] {
  const due: TableWork[] = [];
  for (const row of activity) {
    const vacuum = row.dead > VACUUM_BASE + VACUUM_SCALE * row.live || row.insertedSinceVacuum > INSERT_VACUUM_BASE + INSERT_VACUUM_SCALE * row.live;
    const analyze = row.modifiedSinceAnalyze > ANALYZE_BASE + ANALYZE_SCALE * row.live;
    if (vacuum || analyze) due.push({ table: row.table, vacuum, analyze });
  }
  return due;
}

interface ActivityRow {
  table: string;
  live: string;
  dead: string;
  modified: string;
  inserted: string;
}

export interface VacuumedTable extends TableWork {
  ms: number;
}

/**
 * One pass: reads the counters and works through the due tables one statement each, so that on the embedded database,
 * which answers one statement at a time, the requests that queue meanwhile wait for one table only.
 */
export async function vacuumDueTables(pool: pg.Pool): Promise<VacuumedTable[]> {
  const { rows } = await pool.query<ActivityRow>(
    `select relname as table, n_live_tup as live, n_dead_tup as dead, n_mod_since_analyze as modified, n_ins_since_vacuum as inserted
       from pg_stat_user_tables
      where schemaname = 'public'`,
  );
  const activity = rows.map((row) => ({
    table: row.table,
    live: Number(row.live),
    dead: Number(row.dead),
    modifiedSinceAnalyze: Number(row.modified),
    insertedSinceVacuum: Number(row.inserted),
  }));
  const done: VacuumedTable[] = [];
  for (const work of dueTables(activity)) {
    // The name comes from the catalog, quoted as an identifier; VACUUM takes no bound parameters.
    const table = pg.escapeIdentifier(work.table);
    const started = performance.now();
    await pool.query(work.vacuum ? `vacuum ${work.analyze ? '(analyze) ' : ''}${table}` : `analyze ${table}`);
    done.push({ ...work, ms: Math.round(performance.now() - started) });
  }
  return done;
}

export interface EmbeddedVacuumOptions {
  pool: pg.Pool;
  pollMs?: number;
  onVacuumed?: (tables: VacuumedTable[]) => void;
  onError?: (error: unknown) => void;
}

/** The pass every minute, never two at once; stop() waits for a pass under way. */
export class EmbeddedVacuum {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: EmbeddedVacuumOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        this.schedule();
      });
    }, this.options.pollMs ?? EMBEDDED_VACUUM_POLL_MS);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      const done = await vacuumDueTables(this.options.pool);
      if (done.length > 0) this.options.onVacuumed?.(done);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
