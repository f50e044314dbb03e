import type { Config } from './platform/config';
import { createApp } from './app';
import { seedDemo } from './db/seed/demo';

/** Starts the console: database, migrations, demo data on an empty database, HTTP, and a clean stop on SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const running = await createApp(config);
  const { app } = running;
  if (config.seedDemo) {
    const serverUrl = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
    const seeded = await seedDemo(running.context.db.pool, { secretKey: config.secretKey, serverUrl });
    if (seeded !== null) {
      app.log.info('Seeded demo data');
      console.log('\nDemo logins (password for all: %s):', seeded.password);
      for (const login of seeded.logins) console.log(`  ${login.role.padEnd(10)} ${login.email}`);
    }
  }
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  console.log(`\nOpsdeck is running at ${url}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    running
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
