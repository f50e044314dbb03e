import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const APP = fileURLToPath(new URL('../app.ts', import.meta.url));
const LAZY = ['@kubernetes/client-node', 'mongodb', 'mysql2', 'redis', 'ssh2', 'nodemailer', '@jitl/quickjs-singlefile-mjs-release-sync/dist/emscripten-module'];

const folder = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-imports-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every package the server's modules import at load, seen by a resolve hook in a process of its own. */
function packagesImportedAtLoad(): string[] {
  const log = path.join(folder, 'resolved.txt');
  const hooks = path.join(folder, 'hooks.mjs');
  writeFileSync(log, '');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`,
  );
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`file://${hooks}`)});`;
  execFileSync(process.execPath, ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', `await import(${JSON.stringify(APP)});`], {
    encoding: 'utf8',
  });
  return readFileSync(log, 'utf8').split('\n').filter((url) => url.includes('/node_modules/'));
}

describe('client libraries', () => {
  // A child process that loads the whole server: seconds on a loaded machine, so more time than the default 5 s.
  it('are not loaded when the server starts, only when a check, probe, scraper, action or mail first needs one', { timeout: 60_000 }, () => {
    const loaded = packagesImportedAtLoad();
    // The hook saw the server's own dependencies, so an empty list below is not a hook that saw nothing.
    expect(loaded.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);
    expect(LAZY.filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}`)))).toEqual([]);
  });
});
