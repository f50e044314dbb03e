import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './platform/config';
import { createApp } from './app';
import { seedDemo } from './seed/demo';
import type { Database } from './db/database';
import { startMetricsListener, type MetricsListenerHandle } from './modules/metrics';

interface DemoLogins {
  password: string;
  logins: Array<{ role: string; email: string; totpSecret?: string }>;
}

/**
 * What a newcomer needs to begin: where the console answers and, on the first start, the demo logins. A terminal gets
 * them as a block of plain text; otherwise they are log events like any other, so that stdout stays JSON lines. Both
 * are written whatever LOG_LEVEL says, as the block always was.
 */
/** Said when a demo listens on loopback because HOST was not set. */
const LOOPBACK_NOTE = 'The demo data has public passwords, so the server answers this machine only; set HOST=0.0.0.0 to reach it from others.';

function announcer(config: Config, log: FastifyBaseLogger): { demoLogins(seeded: DemoLogins): void; running(url: string): void } {
  const note = config.hostIsDemoDefault ? LOOPBACK_NOTE : null;
  if (config.logFormat === 'json') {
    const always = log.child({}, { level: 'info' });
    return {
      demoLogins: (seeded) => always.info({ password: seeded.password, logins: seeded.logins }, 'Demo logins'),
      running: (url) => always.info({ url, ...(note === null ? {} : { note }) }, `Opsdeck is running at ${url}`),
    };
  }
  return {
    demoLogins(seeded) {
      console.log('\nDemo logins (password for all: %s):', seeded.password);
      for (const login of seeded.logins) {
        const secondFactor = login.totpSecret === undefined ? '' : `  (then a TOTP code; authenticator key ${login.totpSecret})`;
        console.log(`  ${login.role.padEnd(10)} ${login.email}${secondFactor}`);
      }
    },
    running: (url) => console.log(`\nOpsdeck is running at ${url}${note === null ? '' : `\n${note}`}\n`),
  };
}

/** Starts the console: database, migrations, demo data on an empty database, HTTP, and a clean stop on SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const serverUrl = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
  const demo: { seeded: Awaited<ReturnType<typeof seedDemo>> } = { seeded: null };
  const seed = async (db: Database): Promise<void> => {
    demo.seeded = await seedDemo(db.pool, { secretKey: config.secretKey, serverUrl, dataDir: config.dataDir });
  };
  const running = await createApp(config, { listens: true, ...(config.seedDemo ? { seed } : {}) });
  const { app } = running;
  const announce = announcer(config, app.log);
  if (demo.seeded !== null) {
    app.log.info('Seeded demo data');
    announce.demoLogins(demo.seeded);
  }
  const address = await app.listen({ port: config.port, host: config.host });
  announce.running(address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost'));
  // After the console listens, so a port clash of the metrics listener fails a start that is otherwise complete
  // rather than leaving a half-started process; it stops before the app, so no scrape reads a closing pool.
  let metricsListener: MetricsListenerHandle | null = null;
  if (config.metricsPort !== null) {
    try {
      metricsListener = await startMetricsListener(config, running.context.metrics, (error) => app.log.error({ err: error }, 'metrics scrape'));
    } catch (error) {
      await running.close();
      throw new Error(`The metrics listener could not bind ${config.metricsHost}:${config.metricsPort}: ${error instanceof Error ? error.message : String(error)}`);
    }
    app.log.info({ url: `${metricsListener.url}/metrics` }, 'metrics listener started');
  }

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    (metricsListener?.close() ?? Promise.resolve())
      .then(() => running.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
