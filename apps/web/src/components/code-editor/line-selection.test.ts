import { describe, expect, it } from 'vitest';
import { lineClickMode, nextLineSelection } from './line-selection';

describe('nextLineSelection', () => {
  it('selects the clicked line alone on a plain click', () => {
    expect(nextLineSelection([2, 3], 7, 3, 'only')).toEqual([7]);
  });

  it('clears the selection when the only selected line is clicked again', () => {
    expect(nextLineSelection([7], 7, 7, 'only')).toEqual([]);
  });

  it('extends from the anchor to the clicked line in either direction on shift', () => {
    expect(nextLineSelection([3], 5, 3, 'range')).toEqual([3, 4, 5]);
    expect(nextLineSelection([9], 6, 9, 'range')).toEqual([6, 7, 8, 9]);
  });

  it('selects just the clicked line on shift when nothing anchors the range', () => {
    expect(nextLineSelection([], 4, null, 'range')).toEqual([4]);
  });

  it('adds or removes one line on Ctrl or Cmd, keeping the rest', () => {
    expect(nextLineSelection([1, 5], 3, 5, 'toggle')).toEqual([1, 3, 5]);
    expect(nextLineSelection([1, 3, 5], 3, 3, 'toggle')).toEqual([1, 5]);
  });
});

describe('lineClickMode', () => {
  it('reads shift as a range, Ctrl or Cmd as a toggle and a plain click as one line', () => {
    expect(lineClickMode({ shiftKey: true, ctrlKey: false, metaKey: false })).toBe('range');
    expect(lineClickMode({ shiftKey: false, ctrlKey: true, metaKey: false })).toBe('toggle');
    expect(lineClickMode({ shiftKey: false, ctrlKey: false, metaKey: true })).toBe('toggle');
    expect(lineClickMode({ shiftKey: false, ctrlKey: false, metaKey: false })).toBe('only');
  });
});
