export type DiffLineKind = 'file' | 'hunk' | 'added' | 'removed' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** Line number in the old text; null for added lines, headers and notes. */
  oldNumber: number | null;
  /** Line number in the new text; null for removed lines, headers and notes. */
  newNumber: number | null;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Reads unified diff text (`git diff`, `diff -u`) line by line. A hunk is read for as many lines as its header
 * announces, so inside it a removed line that starts with '---' is still a removed line, and outside it the same text
 * is a file header.
 */
export function parseUnifiedDiff(text: string): DiffLine[] {
  const lines: DiffLine[] = [];
  const source = text.replace(/\r\n/g, '\n').replace(/\n$/, '');
  if (source === '') return lines;
  let oldNumber = 0;
  let newNumber = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of source.split('\n')) {
    const header = HUNK_HEADER.exec(line);
    if (header !== null && oldLeft === 0 && newLeft === 0) {
      oldNumber = Number(header[1]);
      oldLeft = header[2] === undefined ? 1 : Number(header[2]);
      newNumber = Number(header[3]);
      newLeft = header[4] === undefined ? 1 : Number(header[4]);
      lines.push({ kind: 'hunk', text: line, oldNumber: null, newNumber: null });
      continue;
    }
    const inHunk = oldLeft > 0 || newLeft > 0;
    if (line.startsWith('\\')) {
      lines.push({ kind: 'note', text: line, oldNumber: null, newNumber: null });
    } else if (!inHunk) {
      lines.push({ kind: 'file', text: line, oldNumber: null, newNumber: null });
    } else if (line.startsWith('+')) {
      lines.push({ kind: 'added', text: line, oldNumber: null, newNumber: newNumber });
      newNumber += 1;
      newLeft -= 1;
    } else if (line.startsWith('-')) {
      lines.push({ kind: 'removed', text: line, oldNumber: oldNumber, newNumber: null });
      oldNumber += 1;
      oldLeft -= 1;
    } else {
      // Some tools trim the space that starts an empty context line, so an empty line is context too.
      lines.push({ kind: 'context', text: line, oldNumber: oldNumber, newNumber: newNumber });
      oldNumber += 1;
      newNumber += 1;
      oldLeft -= 1;
      newLeft -= 1;
    }
  }
  return lines;
}
