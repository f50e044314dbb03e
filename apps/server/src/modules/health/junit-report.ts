import type { CheckDefinition } from './canary-spec';
import type { CheckResult } from './checkers/run-check';
import { NO_LAST_RESULT, type LastResult } from './last-result';

/**
 * canary-checker's `resultMode: junit` (checks/runchecks.go ProcessResults, checks/common.go GetJunitReportFromResults):
 * the checks of a canary run in one run, and their results are replaced by one whose detail is the JUnit suite. The
 * shapes below are canary-checker's JunitTest and JunitTestSuite as JSON (durations in seconds), except that a test's
 * error is its text (Go writes an error value as {}).
 */
export interface JunitTest {
  name: string;
  /** The check type, as canary-checker fills classname. */
  classname: string;
  /** Seconds. */
  duration: number;
  status: 'passed' | 'failed';
  message: string;
  error?: string;
  /** The check's labels, as canary-checker's test properties. */
  properties?: Record<string, string>;
  /** What a check that reads last_result keeps for its next run: its results, or its transform's detail. */
  results?: Record<string, unknown>;
}

export interface JunitSuite {
  name: string;
  passed: number;
  failed: number;
  /** Seconds: the sum of the tests'. */
  duration: number;
  tests: JunitTest[];
}

/** Runs one check of the report (the scheduler's run of a check: secrets, references, expressions, metrics, timeout). */
export type ReportEntryRunner = (entry: CheckDefinition, outputs: Record<string, unknown> | null) => Promise<CheckResult>;

/** At most this many failed checks are named in the message (canary-checker's GetMessages stops at 10); the details list all. */
const FAILURES_IN_MESSAGE = 10;
/** Each failure's text in the message is cut here, so one long output does not hide the others. */
const FAILURE_TEXT = 300;

function failed(message: string): CheckResult {
  return { pass: false, durationMs: 0, message, error: message, details: null };
}

function dependsOnOf(entry: CheckDefinition): string[] {
  const names = entry.spec.dependsOn;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** What the next run's `last_result.results` is: the results a run kept, or its transform's detail (as loadLastResult reads a row). */
function keptResults(result: CheckResult): Record<string, unknown> {
  const details = result.details ?? {};
  return isRecord(details.results) ? details.results : details;
}

function testOf(entry: CheckDefinition, result: CheckResult): JunitTest {
  return {
    name: entry.name,
    classname: entry.type,
    duration: seconds(result.durationMs),
    status: result.pass ? 'passed' : 'failed',
    message: result.message,
    ...(result.pass || result.error === null ? {} : { error: result.error }),
    ...(Object.keys(entry.labels).length === 0 ? {} : { properties: entry.labels }),
  };
}

/** The tests one check gives: its own, then one per result its transform fanned out into (canary-checker counts them all). */
function testsOf(entry: CheckDefinition, result: CheckResult, keepsResults: boolean): JunitTest[] {
  const own: JunitTest = { ...testOf(entry, result), ...(keepsResults ? { results: keptResults(result) } : {}) };
  const made = (result.transformed ?? []).map(
    (kid): JunitTest => ({
      name: kid.name,
      classname: kid.type,
      duration: seconds(kid.durationMs),
      status: kid.pass ? 'passed' : 'failed',
      message: kid.message,
      ...(kid.pass || kid.error === null ? {} : { error: kid.error }),
      ...(Object.keys(kid.labels).length === 0 ? {} : { properties: kid.labels }),
    }),
  );
  return [own, ...made];
}

/**
 * Why a check does not run: a check it depends on failed, or has not run (a cycle, refused at save, in a stored spec).
 * The words are the per-check scheduler's.
 */
function blockedBy(entry: CheckDefinition, byName: ReadonlyMap<string, CheckDefinition>, done: ReadonlyMap<CheckDefinition, CheckResult>): { outputs: Record<string, unknown> | null; failed: string | null } {
  const names = dependsOnOf(entry);
  if (names.length === 0) return { outputs: null, failed: null };
  const outputs: Record<string, unknown> = {};
  for (const name of names) {
    const dependency = byName.get(name);
    const result = dependency === undefined ? undefined : done.get(dependency);
    if (result === undefined) return { outputs: null, failed: `not run: it depends on '${name}', which did not run before it` };
    if (!result.pass) return { outputs: null, failed: `not run: it depends on '${name}', which failed` };
    outputs[name] = result.variables ?? {};
  }
  return { outputs, failed: null };
}

/**
 * Runs every check of a junit canary, one after another in spec order, each after the checks it depends on (as
 * canary-checker runs a canary's checks, in turn), and returns the one combined result: healthy only when every test
 * passed. A check whose run throws is a failed test with its error; nothing is left out of the suite.
 */
export async function runJunitReport(suiteName: string, entries: readonly CheckDefinition[], run: ReportEntryRunner, options: { signal?: AbortSignal; keepsResults?: (entry: CheckDefinition) => boolean } = {}): Promise<CheckResult> {
  const started = performance.now();
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const done = new Map<CheckDefinition, CheckResult>();
  const pending = [...entries];
  while (pending.length > 0) {
    const ready = pending.findIndex((entry) => dependsOnOf(entry).every((name) => !byName.has(name) || done.has(byName.get(name) ?? entry)));
    const [entry] = pending.splice(ready === -1 ? 0 : ready, 1);
    if (entry === undefined) break;
    const inputs = blockedBy(entry, byName, done);
    let result: CheckResult;
    if (options.signal?.aborted === true) result = failed('not run: the server is stopping');
    else if (inputs.failed !== null) result = failed(inputs.failed);
    else {
      try {
        result = await run(entry, inputs.outputs);
      } catch (error) {
        result = failed(error instanceof Error ? error.message || error.name : String(error));
      }
    }
    done.set(entry, result);
  }
  const tests = entries.flatMap((entry) => {
    const result = done.get(entry) ?? failed('not run');
    return testsOf(entry, result, options.keepsResults?.(entry) ?? false);
  });
  return combinedResult(suiteName, tests, Math.round(performance.now() - started));
}

/** canary-checker's Totals.String(), with the failed tests named after it. */
export function combinedResult(suiteName: string, tests: readonly JunitTest[], durationMs: number): CheckResult {
  const failures = tests.filter((test) => test.status === 'failed');
  const suite: JunitSuite = {
    name: suiteName,
    passed: tests.length - failures.length,
    failed: failures.length,
    duration: Math.round(tests.reduce((sum, test) => sum + test.duration, 0) * 1000) / 1000,
    tests: [...tests],
  };
  const counts = [suite.passed > 0 ? `${suite.passed} passed` : null, suite.failed > 0 ? `${suite.failed} failed` : null].filter((part) => part !== null).join(', ');
  const summary = `${counts === '' ? '0 tests' : counts} in ${formatMs(durationMs)}`;
  // The suite is the detail, as canary-checker stores it.
  const details: Record<string, unknown> = { ...suite };
  if (failures.length === 0) return { pass: true, durationMs, message: summary, error: null, details };
  const named = failures.slice(0, FAILURES_IN_MESSAGE).map((test) => {
    const text = (test.error ?? test.message).replace(/\s+/g, ' ').trim();
    return `${test.name}: ${text.length > FAILURE_TEXT ? `${text.slice(0, FAILURE_TEXT)}…` : text}`;
  });
  const more = failures.length > FAILURES_IN_MESSAGE ? ` and ${failures.length - FAILURES_IN_MESSAGE} more` : '';
  const message = `${summary}; failed: ${named.join('; ')}${more}`;
  // The error is the message itself: the history shows a differing error beside the message, which would list the failures twice.
  return { pass: false, durationMs, message, error: message, details };
}

/**
 * `last_result` of one check of a junit report: its test in the report's previous run (the row's latest status), with
 * the results it kept; before any run, or for a check the previous report did not hold, canary-checker's empty one.
 */
export function lastResultOfTest(previous: LastResult, entry: Pick<CheckDefinition, 'type' | 'name'>): LastResult {
  const tests = isRecord(previous.results) && Array.isArray(previous.results.tests) ? previous.results.tests : [];
  const test = tests.find((candidate: unknown) => isRecord(candidate) && candidate.classname === entry.type && candidate.name === entry.name);
  if (!isRecord(test)) return NO_LAST_RESULT;
  return {
    status: test.status === 'passed',
    invalid: false,
    createdAt: previous.createdAt ?? null,
    duration: typeof test.duration === 'number' ? Math.round(test.duration * 1000) : 0,
    message: typeof test.message === 'string' ? test.message : '',
    error: typeof test.error === 'string' ? test.error : '',
    results: isRecord(test.results) ? test.results : {},
  };
}
