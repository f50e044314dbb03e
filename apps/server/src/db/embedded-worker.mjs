// Plain JavaScript on purpose: a worker thread does not inherit the parent's TypeScript loader.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** @type {{ dataDir: string, memoryFrom: string | null, socketPath: string, maxConnections: number, sharedBuffers: string | null }} */
const data = workerData;
const port = parentPort;
if (port === null) throw new Error('embedded-worker must run in a worker thread');

/** PGlite's own start parameters, with the buffer cache the caller asks for (database.ts, sharedBuffers). */
const startParams = data.sharedBuffers === null ? undefined : [...PGlite.defaultStartParams, '-c', `shared_buffers=${data.sharedBuffers}`];

/** On files under dataDir, or in memory from a data-directory tarball (database.ts, memoryFrom). */
async function open() {
  const options = startParams === undefined ? {} : { startParams };
  if (data.memoryFrom === null) return PGlite.create({ dataDir: data.dataDir, ...options });
  return PGlite.create({ loadDataDir: new Blob([await readFile(data.memoryFrom)]), ...options });
}

async function start() {
  const db = await open();
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
