/** How a click on a line number changes the selected lines. */
export type LineClickMode = 'only' | 'range' | 'toggle';

/**
 * The selected line numbers after a click on `line`: a plain click selects that line alone (or clears it when it was
 * the only one), shift extends from `anchor` to it, and Ctrl or Cmd adds or removes it. Sorted, without duplicates.
 */
export function nextLineSelection(current: readonly number[], line: number, anchor: number | null, mode: LineClickMode): number[] {
  const selected = new Set(current);
  switch (mode) {
    case 'only':
      return selected.size === 1 && selected.has(line) ? [] : [line];
    case 'toggle':
      if (selected.has(line)) selected.delete(line);
      else selected.add(line);
      break;
    case 'range': {
      const from = Math.min(anchor ?? line, line);
      const to = Math.max(anchor ?? line, line);
      for (let number = from; number <= to; number += 1) selected.add(number);
      break;
    }
  }
  return [...selected].sort((a, b) => a - b);
}

export function lineClickMode(event: Pick<MouseEvent | KeyboardEvent, 'shiftKey' | 'ctrlKey' | 'metaKey'>): LineClickMode {
  if (event.shiftKey) return 'range';
  if (event.ctrlKey || event.metaKey) return 'toggle';
  return 'only';
}
