// Builds the server into apps/server/dist (see lib/server-build.mjs).
//   node scripts/build-server.mjs [--if-stale] [--outdir DIR]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer, ensureServerBuild } from './lib/server-build.mjs';

const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean', default: false }, outdir: { type: 'string' } } });
const started = performance.now();
try {
  if (values['if-stale']) {
    ensureServerBuild();
  } else {
    buildServer(values.outdir === undefined ? undefined : path.resolve(values.outdir));
    console.log(`Built the server in ${Math.round(performance.now() - started)} ms`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
