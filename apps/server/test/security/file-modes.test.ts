import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type RunningApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';

function modeOf(target: string): string {
  return (statSync(target).mode & 0o777).toString(8);
}

/**
 * Another user of the machine must not be able to read DATA_DIR/secret.key (it decrypts every stored credential), read
 * or change the database files, or change the properties that switch features on and off.
 */
describe('modes of the data files of an embedded install', () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-modes-'));
  const dataDir = path.join(parent, 'data');
  let running: RunningApp | null = null;

  async function start(): Promise<RunningApp> {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'api', PORT: '0', HOST: '127.0.0.1' });
    running = await createApp(config, { logger: false });
    return running;
  }

  afterEach(async () => {
    await running?.close();
    running = null;
    vi.restoreAllMocks();
  });
  afterAll(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates DATA_DIR and pgdata 0700, and secret.key and the lock file 0600, on the first start', async () => {
    await start();
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(path.join(dataDir, 'pgdata'))).toBe('700');
    expect(modeOf(path.join(dataDir, 'secret.key'))).toBe('600');
    expect(modeOf(path.join(dataDir, 'opsdeck.lock'))).toBe('600');
  }, 120_000);

  it('takes broader modes away from existing data files at start, and warns about each', async () => {
    chmodSync(dataDir, 0o777);
    chmodSync(path.join(dataDir, 'pgdata'), 0o755);
    chmodSync(path.join(dataDir, 'secret.key'), 0o644);
    writeFileSync(path.join(dataDir, 'opsdeck.properties'), 'incidents.enabled=true\n', { mode: 0o666 });
    chmodSync(path.join(dataDir, 'opsdeck.properties'), 0o666);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    await start();

    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(path.join(dataDir, 'pgdata'))).toBe('700');
    expect(modeOf(path.join(dataDir, 'secret.key'))).toBe('600');
    expect(modeOf(path.join(dataDir, 'opsdeck.properties'))).toBe('600');
    const warnings = warn.mock.calls.map(([message]) => String(message));
    for (const name of [dataDir, path.join(dataDir, 'pgdata'), path.join(dataDir, 'secret.key'), path.join(dataDir, 'opsdeck.properties')]) {
      expect(warnings.some((message) => message.startsWith(`${name} was accessible to other users`)), name).toBe(true);
    }
  }, 120_000);
});
