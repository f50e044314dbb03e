import type { LogLine } from '@opsdeck/shared';

/**
 * The lines a user picked, by line id, with the list they were picked in. Line ids are stable within one answer only
 * (a Kubernetes line's id is its place in its pod's answer), so a selection moves to another list of lines — the rest
 * of an answer arriving after its first page, a refresh, a label filter — by content: a line stays selected when the
 * new list holds a line with its id, time and message, and is dropped otherwise.
 */
export interface LineSelection {
  lines: readonly LogLine[] | null;
  ids: ReadonlySet<string>;
  /** Where a Shift range starts: the line last clicked or toggled. */
  anchor: number | null;
}

export const EMPTY_SELECTION: LineSelection = { lines: null, ids: new Set(), anchor: null };

function sameLine(a: LogLine, b: LogLine): boolean {
  return a.id === b.id && a.timestamp === b.timestamp && a.message === b.message;
}

/** The selection as it applies to `lines`: the same lines, where `lines` still holds them (see LineSelection). */
export function selectionFor(selection: LineSelection, lines: readonly LogLine[]): LineSelection {
  if (selection.lines === lines) return selection;
  const previous = selection.lines;
  if (previous === null || selection.ids.size === 0) return { ...EMPTY_SELECTION, lines };
  const picked = new Map<string, LogLine>();
  for (const line of previous) if (selection.ids.has(line.id)) picked.set(line.id, line);
  const anchorLine = selection.anchor === null ? undefined : previous[selection.anchor];
  const ids = new Set<string>();
  let anchor: number | null = null;
  lines.forEach((line, index) => {
    const before = picked.get(line.id);
    if (before !== undefined && sameLine(before, line)) ids.add(line.id);
    if (anchorLine !== undefined && sameLine(anchorLine, line)) anchor = index;
  });
  return { lines, ids, anchor };
}

export function toggleLine(selection: LineSelection, lines: readonly LogLine[], index: number): LineSelection {
  const current = selectionFor(selection, lines);
  const line = lines[index];
  if (line === undefined) return current;
  const ids = new Set(current.ids);
  if (ids.has(line.id)) ids.delete(line.id);
  else ids.add(line.id);
  return { lines, ids, anchor: index };
}

/**
 * Adds every line from the anchor to `index` (both included). Without an anchor the range starts at `from` (the line
 * the keyboard was on), or is just that line.
 */
export function selectRange(selection: LineSelection, lines: readonly LogLine[], index: number, from: number = index): LineSelection {
  const current = selectionFor(selection, lines);
  if (index < 0 || index >= lines.length) return current;
  const anchor = current.anchor ?? Math.min(Math.max(from, 0), lines.length - 1);
  const ids = new Set(current.ids);
  for (let position = Math.min(anchor, index); position <= Math.max(anchor, index); position += 1) {
    const line = lines[position];
    if (line !== undefined) ids.add(line.id);
  }
  // The anchor stays put, so the next Shift move extends the same range.
  return { lines, ids, anchor };
}

/** Indexes into `lines` of the selected lines, in order. */
export function selectedIndexes(selection: LineSelection, lines: readonly LogLine[]): number[] {
  const { ids } = selectionFor(selection, lines);
  if (ids.size === 0) return [];
  const indexes: number[] = [];
  lines.forEach((line, index) => {
    if (ids.has(line.id)) indexes.push(index);
  });
  return indexes;
}
