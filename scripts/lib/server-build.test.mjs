import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from './server-build.mjs';

/** The commands of this process's living children, from /proc. */
function childCommands() {
  const commands = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent id is the second field after the command, which is in parentheses and may hold spaces.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid) commands.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // The process ended while it was read.
    }
  }
  return commands;
}

describe('buildServer', () => {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-server-build-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('bundles the server and leaves no esbuild process running behind it', () => {
    buildServer(outdir);
    expect(existsSync(path.join(outdir, 'main.js'))).toBe(true);
    expect(childCommands().filter((command) => command.includes('esbuild'))).toEqual([]);
  }, 60_000);
});
