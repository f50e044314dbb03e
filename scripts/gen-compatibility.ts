/**
 * Rewrites the generated blocks of docs/compatibility.md from the code that decides what a save accepts (ADR 0069):
 *
 *   npm run docs:compatibility
 *
 * apps/server/src/compatibility-page.test.ts fails while the committed page is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { COMPATIBILITY_PAGE, renderCompatibilityPage } from '../apps/server/src/compatibility-page';

const current = readFileSync(COMPATIBILITY_PAGE, 'utf8');
const next = renderCompatibilityPage(current);
if (next === current) {
  console.log('docs/compatibility.md is up to date');
} else {
  writeFileSync(COMPATIBILITY_PAGE, next);
  console.log('docs/compatibility.md rewritten');
}
