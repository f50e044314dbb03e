import { describe, expect, it } from 'vitest';
import { LOG_COLUMN_SIZES_STORAGE_KEY, defaultColumnWidths, readStoredColumnWidths } from './log-columns';

describe('log column widths', () => {
  it('share a wide table 5 : 300 : 100, holding Time at the width of a timestamp', () => {
    expect(defaultColumnWidths(1440)).toEqual({ time: 170, message: 952, labels: 317 });
  });

  it('keep every column at its minimum on a phone, so the table scrolls sideways', () => {
    expect(defaultColumnWidths(358)).toEqual({ time: 170, message: 240, labels: 140 });
  });

  it('ignore stored widths that are not three positive numbers', () => {
    localStorage.setItem(LOG_COLUMN_SIZES_STORAGE_KEY, JSON.stringify({ time: 100, message: 'wide' }));
    expect(readStoredColumnWidths()).toBeNull();
    localStorage.setItem(LOG_COLUMN_SIZES_STORAGE_KEY, '{not json');
    expect(readStoredColumnWidths()).toBeNull();
  });
});
