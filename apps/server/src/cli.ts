import { loadConfig } from './platform/config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { serve } from './main';
import { benchDataDir, openBenchDatabase } from './bench/bench-database';
import { seedScaleCatalog } from './seed/scale-catalog';
import { seedScaleHealth } from './seed/scale-health';
import { agentCommand } from './agent/run-agent';

function numberFlag(args: string[], name: string): number | undefined {
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index === -1) return undefined;
  const arg = args[index] ?? '';
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number, got ${raw ?? 'nothing'}`);
  return value;
}

/**
 * Fills the bench database (DATABASE_URL, or the embedded one in OPSDECK_BENCH_DIR) with the large data set: without
 * options the health data and the catalog; with options only the parts they name.
 */
async function seedScale(args: string[]): Promise<void> {
  const known = new Set(['--checks', '--statuses', '--configs']);
  for (const arg of args) {
    const name = arg.split('=')[0] ?? arg;
    if (name.startsWith('--') && !known.has(name)) {
      throw new Error(`${name} is not supported: the scale seed generates --checks, --statuses and --configs`);
    }
  }
  const checks = numberFlag(args, 'checks');
  const statuses = numberFlag(args, 'statuses');
  const configs = numberFlag(args, 'configs');
  const all = checks === undefined && statuses === undefined && configs === undefined;
  const db = await openBenchDatabase();
  try {
    console.log(`Seeding ${db.mode === 'embedded' ? `the embedded database in ${benchDataDir()}` : 'DATABASE_URL'}…`);
    if (all || checks !== undefined || statuses !== undefined) {
      const result = await seedScaleHealth(db.pool, {
        checks: checks ?? 10_000,
        statuses: statuses ?? 10_000_000,
        onProgress: (message) => console.log(message),
      });
      console.log(`Done: ${result.checks} checks, ${result.statuses} status rows in ${result.seconds.toFixed(0)} s.`);
    }
    if (all || configs !== undefined) {
      const result = await seedScaleCatalog(db.pool, { configs: configs ?? 100_000, onProgress: (message) => console.log(message) });
      console.log(
        `Done: ${result.configs} catalog items, ${result.changes} changes, ${result.insights} insights, ` +
          `${result.relationships} relationships in ${result.seconds.toFixed(0)} s.`,
      );
    }
  } finally {
    await db.close();
  }
}

const USAGE = 'usage: opsdeck [serve|migrate] [--role=api|worker|all] | seed-scale [--checks N] [--statuses N] [--configs N] | agent --upstream URL [--token TOKEN] [--data-dir DIR]';

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
    case 'seed-scale':
      await seedScale(args);
      return;
    case 'agent':
      await agentCommand(args);
      return;
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
