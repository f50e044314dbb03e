import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const errorsDoc = path.resolve(serverSource, '../../../docs/errors.md');

/** OD401, OD_NAME_TAKEN; not the SQLSTATE ODA01 the database guards raise, which is no API code. */
const OD_CODE = /'(OD(?:\d{3}|_[A-Z0-9_]+))'/g;

/** The server's source files; hidden folders are left out (the import-rules test writes a short-lived probe in one). */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The first cell of every table row, when it is one code in backticks. */
function documentedCodes(): Set<string> {
  const rows = readFileSync(errorsDoc, 'utf8').split('\n');
  return new Set(rows.flatMap((row) => matches(row, /^\| `([^`]+)` \|/g)));
}

function read(relative: string): string {
  return readFileSync(path.join(serverSource, relative), 'utf8');
}

describe('docs/errors.md', () => {
  it('lists every OD code that platform/errors.ts defines or any server file throws', () => {
    const thrown = new Set(sourceFiles(serverSource).flatMap((file) => matches(readFileSync(file, 'utf8'), OD_CODE)));
    expect(thrown).toContain('OD_VALIDATION');
    const documented = documentedCodes();
    expect([...thrown].filter((code) => !documented.has(code))).toEqual([]);
  });

  it('lists no OD code that the server no longer sends', () => {
    const thrown = new Set(sourceFiles(serverSource).flatMap((file) => matches(readFileSync(file, 'utf8'), OD_CODE)));
    const stale = [...documentedCodes()].filter((code) => /^OD(?:\d{3}|_[A-Z0-9_]+)$/.test(code) && !thrown.has(code));
    expect(stale).toEqual([]);
  });

  it('lists every PGRST code of the data API', () => {
    const codes = new Set(matches(read('data-api/api-errors.ts'), /'(PGRST[0-9A-Z]+)'/g));
    expect(codes.size).toBeGreaterThan(10);
    const documented = documentedCodes();
    expect([...codes].filter((code) => !documented.has(code))).toEqual([]);
  });

  it('lists every error id of the identity service', () => {
    const ids = new Set(matches(read('auth/shared/kratos-error.ts'), /new KratosError\(\s*\d+,\s*'([a-z_]+)'/g));
    expect(ids).toContain('session_inactive');
    const documented = documentedCodes();
    expect([...ids].filter((id) => !documented.has(id))).toEqual([]);
  });

  it('finds each OD code in one factory of platform/errors.ts only, so no code carries two meanings', () => {
    const codes = matches(read('platform/errors.ts'), OD_CODE);
    expect(codes).toContain('OD_ROUTE_NOT_FOUND');
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
  });
});
