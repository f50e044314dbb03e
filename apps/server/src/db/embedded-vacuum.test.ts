import { describe, expect, it } from 'vitest';
import { dueTables, type TableActivity } from './embedded-vacuum';

const quiet: TableActivity = { table: 'quiet', live: 100_000, dead: 0, modifiedSinceAnalyze: 0, insertedSinceVacuum: 0 };

describe('dueTables', () => {
  it('leaves a table alone until its dead rows pass 50 plus a fifth of its live ones, as autovacuum would', () => {
    expect(dueTables([quiet, { ...quiet, table: 'some', dead: 20_050 }])).toEqual([]);
    expect(dueTables([{ ...quiet, table: 'churned', dead: 20_051 }])).toEqual([{ table: 'churned', vacuum: true, analyze: false }]);
  });

  it('vacuums a table that only grew, once its inserts pass 1,000 plus a fifth of its rows, so index-only scans see the new pages', () => {
    expect(dueTables([{ ...quiet, table: 'appended', insertedSinceVacuum: 21_000 }])).toEqual([]);
    expect(dueTables([{ ...quiet, table: 'appended', insertedSinceVacuum: 21_001 }])).toEqual([{ table: 'appended', vacuum: true, analyze: false }]);
  });

  it('analyzes a table once the rows changed since its last analysis pass 50 plus a tenth of it, and vacuums and analyzes when both are due', () => {
    expect(dueTables([{ ...quiet, table: 'changed', modifiedSinceAnalyze: 10_051 }])).toEqual([{ table: 'changed', vacuum: false, analyze: true }]);
    expect(dueTables([{ ...quiet, table: 'both', dead: 30_000, modifiedSinceAnalyze: 30_000 }])).toEqual([{ table: 'both', vacuum: true, analyze: true }]);
    expect(dueTables([{ table: 'new', live: 0, dead: 0, modifiedSinceAnalyze: 51, insertedSinceVacuum: 51 }])).toEqual([{ table: 'new', vacuum: false, analyze: true }]);
  });
});
