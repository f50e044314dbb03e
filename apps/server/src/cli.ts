import { loadConfig } from './platform/config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { serve } from './main';

const USAGE = 'usage: opsdeck [serve|migrate] [--role=api|worker|all]';

/** `--role=api|worker|all` on the command line wins over OPSDECK_ROLE. */
function envWithFlags(args: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const arg of args) {
    const match = /^--role=(.*)$/.exec(arg);
    if (match !== null) env.OPSDECK_ROLE = match[1];
  }
  return env;
}

async function run(command: string, args: string[]): Promise<void> {
  switch (command) {
    case 'serve':
      await serve(loadConfig(envWithFlags(args)));
      return;
    case 'migrate': {
      const config = loadConfig(envWithFlags(args));
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

const [command = 'serve', ...rest] = process.argv.slice(2);
const positional = command.startsWith('--') ? 'serve' : command;
const flags = command.startsWith('--') ? [command, ...rest] : rest;

run(positional, flags).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
