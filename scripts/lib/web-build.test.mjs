import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './web-build.mjs';

/** The build's warning about chunks, whose limit this is. */
const CHUNK_WARNING_BYTES = 500 * 1000;

describe('the web build npm start runs', () => {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-web-build-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('says nothing when nothing is wrong, and no chunk reaches the size the build warns about', () => {
    // As npm start runs it: not under this runner's NODE_ENV=test, which would make a development build of React.
    const env = { ...process.env, NODE_ENV: 'production' };
    const result = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--logLevel', 'warn'], { cwd: path.join(ROOT, 'apps/web'), encoding: 'utf8', env });
    expect(result.status, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(true);
    const assets = path.join(outDir, 'assets');
    const oversized = readdirSync(assets).filter((file) => file.endsWith('.js') && statSync(path.join(assets, file)).size >= CHUNK_WARNING_BYTES);
    expect(oversized).toEqual([]);
    // A whole build: seconds alone, a minute on a busy 2-core machine.
  }, 180_000);
});
