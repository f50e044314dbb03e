import { loadConfig } from './platform/config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { serve } from './main';

const USAGE = 'usage: opsdeck [serve|migrate]';

async function run(command: string): Promise<void> {
  switch (command) {
    case 'serve':
      await serve(loadConfig());
      return;
    case 'migrate': {
      const config = loadConfig();
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs });
      try {
        const applied = await migrate(db.pool);
        console.log(applied.length === 0 ? 'Database is up to date' : `Applied ${applied.join(', ')}`);
      } finally {
        await db.close();
      }
      return;
    }
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

run(process.argv[2] ?? 'serve').catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
