// Prints the summary of a CI run (scripts/test.sh): every step with its result, time and test counts, the ten slowest
// test files of all the Vitest and Playwright JSON reports, every failed test with the first lines of its error (CI shows
// only the end of a run's output, so the failures must be in it), the wall time, and last the line CI reads,
// "<passed> passed, <failed> failed".
//   node scripts/test-summary.mjs <steps file> <wall seconds>
// Each line of the steps file is "<name>\t<exit status>\t<seconds>\t<report file or empty>", in the order the steps
// were started. Exits 1 when any step failed.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SLOWEST_SHOWN = 10;
/** Lines of each failure's message printed under its name: enough to tell an assertion from a timeout. */
const FAILURE_LINES = 6;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The parsed report, or null when the step wrote none or it is unreadable (a crash before the reporter ran). */
function readReport(file) {
  if (file === '') return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function relative(file) {
  return path.isAbsolute(file) ? path.relative(ROOT, file) : file;
}

/** Every test's duration in a Playwright suite tree, summed per spec file. */
function playwrightFileTimes(suites, times = new Map()) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      const spent = (spec.tests ?? []).flatMap((test) => test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
      const file = spec.file ?? suite.file;
      times.set(file, (times.get(file) ?? 0) + spent);
    }
    playwrightFileTimes(suite.suites, times);
  }
  return times;
}

/** The first lines of an error message, without terminal colours, indented under the failed test's name. */
function excerpt(message) {
  return String(message ?? '')
    // eslint-disable-next-line no-control-regex -- the reporters colour their messages with ANSI escapes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, FAILURE_LINES)
    .map((line) => `      ${line}`);
}

/** Every failed test (and every file that failed outside its tests) of a Vitest report. */
function vitestFailures(report) {
  const failures = [];
  for (const result of report.testResults ?? []) {
    const file = relative(result.name);
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push({ title: `${file} > ${test.fullName ?? test.title}`, lines: excerpt(test.failureMessages?.[0]) });
    if (result.status === 'failed' && failedTests.length === 0) failures.push({ title: `${file} (outside its tests)`, lines: excerpt(result.message) });
  }
  return failures;
}

/** Every Playwright test whose last attempt did not pass. */
function playwrightFailures(suites, failures = []) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const last = (test.results ?? []).at(-1);
        if (last === undefined || last.status === 'passed' || last.status === 'skipped') continue;
        const message = last.error?.message ?? last.errors?.[0]?.message ?? last.status;
        failures.push({ title: `${path.join('e2e', spec.file ?? suite.file ?? '')} > ${spec.title} (${last.status})`, lines: excerpt(message) });
      }
    }
    playwrightFailures(suite.suites, failures);
  }
  return failures;
}

/**
 * Counts and per-file times of one report; Vitest and Playwright reports are told apart by their shape. A Vitest file's
 * time is what its report holds, from its first test's start to its last test's end (a beforeAll ahead of the first
 * test is not in it); a Playwright file's is the sum of its tests' durations, hooks and fixtures included.
 */
function readResults(report) {
  if (typeof report.numPassedTests === 'number') {
    const files = (report.testResults ?? []).map((result) => ({ file: relative(result.name), ms: Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0)) }));
    return { passed: report.numPassedTests, failed: report.numFailedTests, files, failures: vitestFailures(report) };
  }
  if (report.stats !== undefined && typeof report.stats.expected === 'number') {
    const files = [...playwrightFileTimes(report.suites)].map(([file, ms]) => ({ file: path.join('e2e', file), ms }));
    // The specs run without retries, so "flaky" stays 0; were it not, a test that passed on a retry still passed.
    return { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected, files, failures: playwrightFailures(report.suites) };
  }
  return null;
}

function formatSeconds(seconds) {
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

const [stepsFile, wallArgument] = process.argv.slice(2);
if (stepsFile === undefined || wallArgument === undefined) {
  console.error('usage: node scripts/test-summary.mjs <steps file> <wall seconds>');
  process.exit(2);
}

const lines = readFileSync(stepsFile, 'utf8').split('\n').filter((line) => line !== '');
let passed = 0;
let failed = 0;
let anyFailed = false;
const slowest = [];
const stepLines = [];
const failures = [];
for (const line of lines) {
  const [name = '', statusText = '1', secondsText = '0', reportFile = ''] = line.split('\t');
  const status = Number(statusText);
  const seconds = Number(secondsText);
  const report = readReport(reportFile);
  const results = report === null ? null : readResults(report);
  const stepPassed = results?.passed ?? 0;
  let stepFailed = results?.failed ?? 0;
  // A step that fails without a failed test (lint, typecheck, a build, a crash, an error outside any test) counts as
  // one failure, so the last line can never say "0 failed" for a broken run.
  if (status !== 0 && stepFailed === 0) stepFailed = 1;
  if (status !== 0) anyFailed = true;
  passed += stepPassed;
  failed += stepFailed;
  for (const entry of results?.files ?? []) slowest.push({ step: name, ...entry });
  for (const failure of results?.failures ?? []) failures.push({ step: name, ...failure });
  const detail = results === null ? '' : `${stepPassed} passed, ${stepFailed} failed`;
  stepLines.push(`  ${(status === 0 ? 'ok' : 'FAILED').padEnd(7)} ${name.padEnd(32)} ${formatSeconds(seconds).padStart(7)}  ${detail}`.trimEnd());
}

console.log('\n==================== Summary ====================');
console.log(stepLines.join('\n'));
console.log(`  wall time ${formatSeconds(Number(wallArgument))}`);

slowest.sort((a, b) => b.ms - a.ms);
if (slowest.length > 0) {
  console.log(`\nThe ${Math.min(SLOWEST_SHOWN, slowest.length)} slowest test files:`);
  for (const entry of slowest.slice(0, SLOWEST_SHOWN)) {
    console.log(`  ${`${(entry.ms / 1000).toFixed(1)}s`.padStart(8)}  ${entry.step.padEnd(32)} ${entry.file}`);
  }
}

if (failures.length > 0) {
  console.log(`\nFailed tests (${failures.length}):`);
  for (const failure of failures) {
    console.log(`  ${failure.step}: ${failure.title}`);
    for (const line of failure.lines) console.log(line);
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(anyFailed ? 1 : 0);
