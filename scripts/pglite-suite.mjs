// The server test files `npm test` runs on PGlite as well as on PostgreSQL (apps/server/test/pglite-suite.txt), as the
// paths Vitest takes for filters: one file each, or a prefix for a line ending in '*'.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SUITE_LIST = path.join(root, 'apps/server/test/pglite-suite.txt');

/** The list's lines without comments and blanks. */
export function suiteEntries(text = readFileSync(SUITE_LIST, 'utf8')) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Whether `file` (relative to apps/server/test) is one the entry names. */
export function entryNames(entry, file) {
  return entry.endsWith('*') ? file.startsWith(entry.slice(0, -1)) : file === entry;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const entry of suiteEntries()) console.log(`apps/server/test/${entry.endsWith('*') ? entry.slice(0, -1) : entry}`);
}
