import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './parse-unified-diff';

const DIFF = [
  'diff --git a/deployment.yaml b/deployment.yaml',
  '--- a/deployment.yaml',
  '+++ b/deployment.yaml',
  '@@ -3,4 +3,4 @@ spec:',
  '   replicas: 2',
  '-  image: nginx:1.25',
  '+  image: nginx:1.27',
  '   port: 80',
  '',
  '\\ No newline at end of file',
].join('\n');

describe('parseUnifiedDiff', () => {
  it('tells file headers, hunk headers, added, removed and context lines apart', () => {
    expect(parseUnifiedDiff(DIFF).map((line) => line.kind)).toEqual(['file', 'file', 'file', 'hunk', 'context', 'removed', 'added', 'context', 'context', 'note']);
  });

  it('numbers old and new lines from the hunk header', () => {
    const lines = parseUnifiedDiff(DIFF).filter((line) => line.kind !== 'file' && line.kind !== 'hunk' && line.kind !== 'note');
    expect(lines.map((line) => [line.oldNumber, line.newNumber])).toEqual([
      [3, 3],
      [4, null],
      [null, 4],
      [5, 5],
      [6, 6],
    ]);
  });

  it("reads a removed line that starts with '---' inside a hunk as a removed line", () => {
    const lines = parseUnifiedDiff(['@@ -1,2 +1,1 @@', '--- a yaml document marker', ' kept'].join('\n'));
    expect(lines.map((line) => line.kind)).toEqual(['hunk', 'removed', 'context']);
  });

  it('starts a new file after a hunk has been read to its announced length', () => {
    const lines = parseUnifiedDiff(['@@ -1 +1 @@', '-a', '+b', '--- a/other', '+++ b/other', '@@ -10,0 +11,1 @@', '+c'].join('\n'));
    expect(lines.map((line) => line.kind)).toEqual(['hunk', 'removed', 'added', 'file', 'file', 'hunk', 'added']);
    expect(lines.at(-1)?.newNumber).toBe(11);
  });

  it('gives nothing for empty text and keeps Windows line ends out of the lines', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
    expect(parseUnifiedDiff('@@ -1 +1 @@\r\n-a\r\n+b\r\n').map((line) => line.text)).toEqual(['@@ -1 +1 @@', '-a', '+b']);
  });
});
