// Plain JavaScript on purpose: a worker thread does not inherit the parent's TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** @type {{ dataDir: string, socketPath: string, maxConnections: number }} */
const data = workerData;
const port = parentPort;
if (port === null) throw new Error('embedded-worker must run in a worker thread');

async function start() {
  const db = await PGlite.create(data.dataDir);
  const server = new PGLiteSocketServer({ db, path: data.socketPath, maxConnections: data.maxConnections });
  await server.start();
  port.on('message', (message) => {
    if (message !== 'close') return;
    void (async () => {
      await server.stop();
      await db.close();
      port.postMessage({ type: 'closed' });
    })();
  });
  port.postMessage({ type: 'ready' });
}

start().catch((error) => {
  port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
});
