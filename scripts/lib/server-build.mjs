import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, newestMtime } from './web-build.mjs';

const SERVER = path.join(ROOT, 'apps/server');
export const SERVER_DIST = path.join(SERVER, 'dist');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');

// Everything the bundle is made of: the shared package is bundled in, and this file holds the build's settings.
const SERVER_INPUTS = ['apps/server/src', 'packages/shared/src', 'scripts/lib/server-build.mjs'];

/** Why the server needs a build, or null when apps/server/dist/main.js is newer than everything it is built from. */
export function serverBuildReason() {
  if (!existsSync(SERVER_ENTRY)) return 'apps/server/dist is missing';
  const built = statSync(SERVER_ENTRY).mtimeMs;
  const changed = SERVER_INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > built);
  return changed === undefined ? null : `${changed} changed since the last build`;
}

/**
 * Bundles src/cli.ts and the shared package into <outdir>/main.js; npm packages stay imports, resolved from
 * node_modules at run time (native bindings, PGlite's WebAssembly). The files the code finds next to itself by URL
 * are copied beside the bundle: the database worker (db/database.ts), the migrations and views/ (db/migrate.ts).
 */
export function buildServer(outdir = SERVER_DIST) {
  // Loaded only to build: an install without dev dependencies can still start a server built beforehand. Without
  // worker threads esbuild's sync build runs its binary once and waits for it; with them it keeps an idle `esbuild
  // --service` child for as long as this process lives, which for `npm start` is as long as the server runs. The
  // setting is read as esbuild loads.
  const workerThreads = process.env.ESBUILD_WORKER_THREADS;
  process.env.ESBUILD_WORKER_THREADS = '0';
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  if (workerThreads === undefined) delete process.env.ESBUILD_WORKER_THREADS;
  else process.env.ESBUILD_WORKER_THREADS = workerThreads;
  rmSync(outdir, { recursive: true, force: true });
  buildSync({
    entryPoints: [{ in: path.join(SERVER, 'src/cli.ts'), out: 'main' }],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    // The workspace package exports its TypeScript sources, which Node cannot load; aliases apply before the
    // external rule, so it is bundled.
    alias: { '@opsdeck/shared': path.join(ROOT, 'packages/shared/src/index.ts') },
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync(path.join(SERVER, 'src/db/embedded-worker.mjs'), path.join(outdir, 'embedded-worker.mjs'));
  cpSync(path.join(SERVER, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
  cpSync(path.join(SERVER, 'src/db/views'), path.join(outdir, 'views'), { recursive: true });
}

/** Builds the server when it is missing or stale; throws when the build fails. */
export function ensureServerBuild() {
  const reason = serverBuildReason();
  if (reason === null) return;
  console.log(`Building the server (${reason})…`);
  buildServer();
}
