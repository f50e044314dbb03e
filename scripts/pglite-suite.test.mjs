import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryNames, suiteEntries } from './pglite-suite.mjs';

const testRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/test');
const files = readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => file.endsWith('.test.ts'));

describe('the PGlite suite list', () => {
  it('names only server test files that exist', () => {
    for (const entry of suiteEntries()) expect(files.filter((file) => entryNames(entry, file)), entry).not.toEqual([]);
  });

  it('holds every server test file that names the embedded engine, so none of them runs on PostgreSQL alone', () => {
    const embedded = files.filter((file) => /dbMode|pglite|embedded/i.test(readFileSync(path.join(testRoot, file), 'utf8')));
    expect(embedded.length).toBeGreaterThan(10);
    expect(embedded.filter((file) => !suiteEntries().some((entry) => entryNames(entry, file)))).toEqual([]);
  });

  it('reads comments and blank lines as nothing and a trailing * as a prefix', () => {
    expect(suiteEntries('# a note\n\n a.test.ts \ndata-api-*\n')).toEqual(['a.test.ts', 'data-api-*']);
    expect(entryNames('data-api-*', 'data-api-fuzz.test.ts')).toBe(true);
    expect(entryNames('apply.test.ts', 'apply-gitops.test.ts')).toBe(false);
  });
});
