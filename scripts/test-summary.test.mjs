// Runs the CI summary on small Vitest and Playwright reports and reads what it prints: CI shows only the end of a run,
// so each failed test's name and the start of its error must be there, beside the step times and the last line.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-summary.mjs');
let dir = '';

const vitestReport = {
  numPassedTests: 1,
  numFailedTests: 1,
  testResults: [
    {
      name: path.join(path.dirname(script), '..', 'apps/server/test/topology.test.ts'),
      status: 'failed',
      startTime: 1000,
      endTime: 4000,
      message: '',
      assertionResults: [
        { status: 'passed', fullName: 'topology reads a component' },
        { status: 'failed', fullName: 'topology writes 5,000 components', failureMessages: ['\u001b[31mError: canceling statement due to statement timeout\u001b[39m\n    at write (x.ts:1:1)'] },
      ],
    },
    { name: path.join(path.dirname(script), '..', 'apps/server/test/broken.test.ts'), status: 'failed', startTime: 0, endTime: 10, message: 'Hook timed out in 120000ms', assertionResults: [] },
  ],
};

const playwrightReport = {
  stats: { expected: 2, flaky: 0, unexpected: 1 },
  suites: [
    {
      file: 'specs/job-history.spec.ts',
      specs: [
        { file: 'specs/job-history.spec.ts', title: 'lists runs', tests: [{ results: [{ status: 'passed', duration: 900 }] }] },
        {
          file: 'specs/job-history.spec.ts',
          title: 'narrows to one job name',
          tests: [{ results: [{ status: 'failed', duration: 2000, error: { message: 'expect(locator).toHaveCount(1)\nReceived: 3' } }] }],
        },
      ],
      suites: [{ file: 'specs/job-history.spec.ts', specs: [{ file: 'specs/job-history.spec.ts', title: 'pages', tests: [{ results: [{ status: 'passed', duration: 10 }] }] }] }],
    },
  ],
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'summary-test-'));
  writeFileSync(path.join(dir, 'server.json'), JSON.stringify(vitestReport));
  writeFileSync(path.join(dir, 'e2e.json'), JSON.stringify(playwrightReport));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function summarise(steps) {
  const file = path.join(dir, 'steps.tsv');
  writeFileSync(file, `${steps.join('\n')}\n`);
  try {
    const { stdout } = await run(process.execPath, [script, file, '125']);
    return { code: 0, stdout };
  } catch (error) {
    return { code: error.code, stdout: error.stdout };
  }
}

describe('the CI summary', () => {
  it('names every failed test with the first line of its error, without terminal colours, and fails the run', async () => {
    const { code, stdout } = await summarise([
      `lint\t0\t40\t`,
      `server tests\t1\t300\t${path.join(dir, 'server.json')}`,
      `e2e\t1\t900\t${path.join(dir, 'e2e.json')}`,
    ]);
    expect(code).toBe(1);
    const failed = stdout.slice(stdout.indexOf('Failed tests (3):'));
    expect(failed).toContain('server tests: apps/server/test/topology.test.ts > topology writes 5,000 components');
    expect(failed).toContain('      Error: canceling statement due to statement timeout');
    expect(failed).not.toContain('\u001b[');
    expect(failed).toContain('server tests: apps/server/test/broken.test.ts (outside its tests)');
    expect(failed).toContain('      Hook timed out in 120000ms');
    expect(failed).toContain('e2e: e2e/specs/job-history.spec.ts > narrows to one job name (failed)');
    expect(failed).toContain('      Received: 3');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('3 passed, 2 failed');
  });

  it('prints no failure list when every test passed', async () => {
    const { code, stdout } = await summarise([`lint\t0\t40\t`, `typecheck\t0\t50\t`]);
    expect(code).toBe(0);
    expect(stdout).not.toContain('Failed tests');
    expect(stdout).toContain('wall time 2m05s');
  });
});
