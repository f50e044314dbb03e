import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

// The shared package is bundled into the web app, so a change there makes the build stale too.
const WEB_INPUTS = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'];

export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why the web app needs a build, or null when apps/web/dist is newer than everything it is built from. */
export function webBuildReason() {
  const index = path.join(WEB_DIST, 'index.html');
  if (!existsSync(index)) return 'apps/web/dist is missing';
  const built = statSync(index).mtimeMs;
  const changed = WEB_INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > built);
  return changed === undefined ? null : `${changed} changed since the last build`;
}

/** Builds the web app when it is missing or stale; throws when the build fails. */
export function ensureWebBuild() {
  const reason = webBuildReason();
  if (reason === null) return;
  console.log(`Building the web app (${reason})…`);
  // Warnings and errors only: the size of every asset is for whoever runs `npm run build` on purpose.
  const result = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web', '--', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`web build failed (exit ${result.status ?? result.signal})`);
}
