// Prints "<passed> <failed>" from a Vitest or Playwright JSON report; prints nothing when the report is missing or
// unreadable, which the caller treats as "no test counts" (the step's exit code still decides whether it failed).
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  process.exit(0);
}

if (typeof report.numPassedTests === 'number') {
  console.log(`${report.numPassedTests} ${report.numFailedTests}`);
} else if (report.stats !== undefined && typeof report.stats.expected === 'number') {
  // Playwright runs without retries, so "flaky" stays 0; it is counted as passed only for completeness.
  console.log(`${report.stats.expected + report.stats.flaky} ${report.stats.unexpected}`);
}
