import { openDatabase, type Database, type DatabaseOptions } from './database';
import { migrate } from './migrate';

export interface OpenMigratedOptions {
  open?: (options: DatabaseOptions) => Promise<Database>;
  /** Work that belongs with the migrations (the demo seed), done in the first worker when migrations ran. */
  prepare?: (db: Database) => Promise<void>;
}

/**
 * An embedded database, migrated. Creating and migrating a database (and seeding it) grows PGlite's WebAssembly
 * memory and the process's allocator by a few hundred MB that are never given back, so when migrations ran the
 * database is closed and opened again in a fresh worker (ADR 0079): a new agent then idles at 374–396 MB instead of
 * 772–792. Before the close it is analyzed. A database already up to date is opened once.
 */
export async function openMigrated(options: DatabaseOptions, { open = openDatabase, prepare }: OpenMigratedOptions = {}): Promise<Database> {
  const first = await open(options);
  try {
    const applied = await migrate(first.pool);
    if (applied.length === 0) return first;
    await prepare?.(first);
    // The activity counters the embedded vacuum reads do not survive the reopen (ADR 0080), so what the migrations and
    // the seed wrote is analyzed here; ANALYZE samples a bounded number of rows per table.
    await first.pool.query('analyze');
  } catch (error) {
    await first.close();
    throw error;
  }
  await first.close();
  return open(options);
}
