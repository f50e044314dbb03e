import { describe, expect, it } from 'vitest';
import { isColumnOn, NO_COLUMN_CHOICE, parseColumnChoice, toggleColumn } from './column-chooser';

describe('the catalog column choice', () => {
  const labels = { id: 'labels', hideBelow: 1650 };

  it('follows the width until a column is chosen on or off, and then keeps the choice at every width', () => {
    expect(isColumnOn(NO_COLUMN_CHOICE, labels, 1440)).toBe(false);
    expect(isColumnOn(NO_COLUMN_CHOICE, labels, 1700)).toBe(true);
    const on = toggleColumn(NO_COLUMN_CHOICE, 'labels', true);
    expect(isColumnOn(on, labels, 390)).toBe(true);
    const off = toggleColumn(on, 'labels', false);
    expect(off).toEqual({ shown: [], hidden: ['labels'] });
    expect(isColumnOn(off, labels, 2000)).toBe(false);
  });

  it('reads a stored choice back and ignores one that is not a choice', () => {
    expect(parseColumnChoice(JSON.stringify({ shown: ['agent'], hidden: ['type', 3] }))).toEqual({ shown: ['agent'], hidden: ['type'] });
    expect(parseColumnChoice('not json')).toEqual(NO_COLUMN_CHOICE);
    expect(parseColumnChoice('')).toEqual(NO_COLUMN_CHOICE);
  });
});
