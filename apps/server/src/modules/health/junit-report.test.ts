import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from './canary-spec';
import type { CheckResult } from './checkers/run-check';
import { combinedResult, lastResultOfTest, runJunitReport, type JunitTest } from './junit-report';
import { NO_LAST_RESULT } from './last-result';

function entry(name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): CheckDefinition {
  return { type: 'http', name, description: null, icon: null, endpoint: null, owner: null, severity: null, labels, spec: { name, ...spec } };
}

const passed = (message = 'ok', durationMs = 10, variables: Record<string, unknown> = {}): CheckResult => ({ pass: true, durationMs, message, error: null, details: null, variables });
const failed = (error: string, durationMs = 20): CheckResult => ({ pass: false, durationMs, message: '', error, details: null });

describe('the junit report of a canary', () => {
  it('is healthy only when every check passed, with the counts as its message and the suite as its details', async () => {
    const result = await runJunitReport('storefront', [entry('home', {}, { tier: 'web' }), entry('api')], async (check) => passed(`${check.name} answered`));
    expect(result.pass).toBe(true);
    expect(result.error).toBeNull();
    expect(result.message).toMatch(/^2 passed in \d+ms$/);
    expect(result.details).toEqual({
      name: 'storefront',
      passed: 2,
      failed: 0,
      duration: 0.02,
      tests: [
        { name: 'home', classname: 'http', duration: 0.01, status: 'passed', message: 'home answered', properties: { tier: 'web' } },
        { name: 'api', classname: 'http', duration: 0.01, status: 'passed', message: 'api answered' },
      ],
    });
  });

  it('fails when one check failed, naming each failed check with its message in the message and the error', async () => {
    const result = await runJunitReport('storefront', [entry('home'), entry('api'), entry('search')], async (check) =>
      check.name === 'home' ? passed() : failed(`${check.name}: response code 500 is not in [200]`),
    );
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/^1 passed, 2 failed in \d+ms; failed: api: api: response code 500 is not in \[200\]; search: search: response code 500 is not in \[200\]$/);
    expect(result.error).toBe(result.message);
    expect(result.message).toContain('failed: api: api: response code 500 is not in [200]; search: search: response code 500 is not in [200]');
    expect(result.details).toMatchObject({ passed: 1, failed: 2 });
    expect((result.details?.tests as JunitTest[]).map((test) => `${test.name} ${test.status} ${test.error ?? ''}`)).toEqual([
      'home passed ',
      'api failed api: response code 500 is not in [200]',
      'search failed search: response code 500 is not in [200]',
    ]);
  });

  it('counts a check whose run throws as failed with its error, and still runs the others', async () => {
    const ran: string[] = [];
    const result = await runJunitReport('storefront', [entry('broken'), entry('home')], async (check) => {
      ran.push(check.name);
      if (check.name === 'broken') throw new Error('connection pool is closed');
      return passed();
    });
    expect(ran).toEqual(['broken', 'home']);
    expect(result.pass).toBe(false);
    expect(result.error).toBe(result.message);
    expect(result.message).toContain('failed: broken: connection pool is closed');
  });

  it('runs the checks one after another in spec order, each after those it depends on, which it reads as outputs', async () => {
    const ran: string[] = [];
    const seen: Record<string, unknown> = {};
    const result = await runJunitReport('storefront', [entry('useUuid', { dependsOn: ['getUuid'] }), entry('getUuid'), entry('broken'), entry('afterBroken', { dependsOn: ['broken'] })], async (check, outputs) => {
      ran.push(check.name);
      seen[check.name] = outputs;
      if (check.name === 'broken') return failed('500');
      return passed('ok', 10, check.name === 'getUuid' ? { json: { uuid: 'f3c1' } } : {});
    });
    expect(ran).toEqual(['getUuid', 'useUuid', 'broken']);
    expect(seen.useUuid).toEqual({ getUuid: { json: { uuid: 'f3c1' } } });
    // The suite keeps the spec's order; a check whose dependency failed fails without running, in the scheduler's words.
    const tests = result.details?.tests as JunitTest[];
    expect(tests.map((test) => test.name)).toEqual(['useUuid', 'getUuid', 'broken', 'afterBroken']);
    expect(tests[3]).toMatchObject({ status: 'failed', error: "not run: it depends on 'broken', which failed" });
  });

  it("makes a transform's fanned-out results tests of the suite, as canary-checker counts them", async () => {
    const kid = (name: string, pass: boolean) => ({ name, type: 'http', description: null, icon: null, labels: { pod: name }, pass, message: `${name} says`, error: pass ? null : `${name} is down`, details: null, durationMs: 5 });
    const result = await runJunitReport('storefront', [entry('pods')], async () => ({ ...passed(), transformed: [kid('web-1', true), kid('web-2', false)] }));
    expect(result.pass).toBe(false);
    expect((result.details?.tests as JunitTest[]).map((test) => `${test.name} ${test.status}`)).toEqual(['pods passed', 'web-1 passed', 'web-2 failed']);
    expect(result.error).toBe(result.message);
    expect(result.message).toContain('failed: web-2: web-2 is down');
  });

  it('runs nothing more once the server is stopping, and the report fails', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const result = await runJunitReport(
      'storefront',
      [entry('first'), entry('second')],
      async (check) => {
        ran.push(check.name);
        controller.abort();
        return passed();
      },
      { signal: controller.signal },
    );
    expect(ran).toEqual(['first']);
    expect(result.pass).toBe(false);
    expect(result.error).toBe(result.message);
    expect(result.message).toContain('failed: second: not run: the server is stopping');
  });

  it('names at most ten failed checks in the message and cuts a long one, while the details keep them all', () => {
    const tests: JunitTest[] = Array.from({ length: 12 }, (_, index) => ({ name: `c${index}`, classname: 'http', duration: 0, status: 'failed', message: '', error: index === 0 ? 'x'.repeat(400) : 'down' }));
    const result = combinedResult('many', tests, 1500);
    expect(result.message).toMatch(/^12 failed in 1\.5s; failed: c0: x{300}…; c1: down; .*; c9: down and 2 more$/);
    expect(result.details?.tests).toHaveLength(12);
  });

  it("gives a check that reads last_result its own test of the report's previous run, with the results it kept", async () => {
    const result = await runJunitReport('files', [entry('backups'), entry('logs')], async (check) => ({ ...passed(), details: { results: { max: `${check.name}-max` } } }), {
      keepsResults: (check) => check.name === 'backups',
    });
    const tests = result.details?.tests as JunitTest[];
    expect(tests[0]?.results).toEqual({ max: 'backups-max' });
    expect(tests[1]?.results).toBeUndefined();
    const previous = { ...NO_LAST_RESULT, status: true, createdAt: '2026-12-01T10:00:00.000Z', results: result.details ?? {} };
    expect(lastResultOfTest(previous, { type: 'http', name: 'backups' })).toEqual({
      status: true,
      invalid: false,
      createdAt: '2026-12-01T10:00:00.000Z',
      duration: 10,
      message: 'ok',
      error: '',
      results: { max: 'backups-max' },
    });
    expect(lastResultOfTest(previous, { type: 'tcp', name: 'backups' })).toBe(NO_LAST_RESULT);
    expect(lastResultOfTest(NO_LAST_RESULT, { type: 'http', name: 'backups' })).toBe(NO_LAST_RESULT);
  });
});
