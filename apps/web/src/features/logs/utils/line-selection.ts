import type { LogLine } from '@opsdeck/shared';

/**
 * The lines a user picked, by line id (stable within one answer). A selection belongs to one list of lines: a new
 * answer or other label filters start from nothing, since the lines picked may no longer be there.
 */
export interface LineSelection {
  lines: readonly LogLine[] | null;
  ids: ReadonlySet<string>;
  /** Where a Shift range starts: the line last clicked or toggled. */
  anchor: number | null;
}

export const EMPTY_SELECTION: LineSelection = { lines: null, ids: new Set(), anchor: null };

/** The selection as it applies to `lines`: empty when it was made on another list. */
export function selectionFor(selection: LineSelection, lines: readonly LogLine[]): LineSelection {
  return selection.lines === lines ? selection : { ...EMPTY_SELECTION, lines };
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
