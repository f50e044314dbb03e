import { describe, expect, it } from 'vitest';
import { configEvidence, formatSelectedLines, parseSelectedLines } from './selected-lines';

describe('parseSelectedLines', () => {
  it('reads single lines and ranges, sorted and without duplicates', () => {
    expect(parseSelectedLines('9,3-5,4', 20)).toEqual([3, 4, 5, 9]);
  });

  it('skips entries that are no line number and clips ranges to the content', () => {
    expect(parseSelectedLines('x,0,2,,7-3,18-99,-4', 20)).toEqual([2, 3, 4, 5, 6, 7, 18, 19, 20]);
  });

  it('reads nothing from an absent parameter', () => {
    expect(parseSelectedLines(null, 20)).toEqual([]);
  });
});

describe('formatSelectedLines', () => {
  it('writes runs of lines as ranges', () => {
    expect(formatSelectedLines([9, 3, 4, 5, 12, 13])).toEqual('3-5,9,12-13');
  });

  it('writes nothing for no lines', () => {
    expect(formatSelectedLines([])).toEqual('');
  });
});

describe('configEvidence', () => {
  it('keeps the selected lines with three lines of context and points selected_lines into them', () => {
    const content = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');
    const evidence = configEvidence({ id: 'c1', name: 'checkout-api' }, content, [6]);
    expect(evidence).toMatchObject({ type: 'config', config_id: 'c1', description: 'checkout-api' });
    expect(evidence.evidence).toEqual({
      configName: 'checkout-api',
      lines: ['line 3', 'line 4', 'line 5', 'line 6', 'line 7', 'line 8', 'line 9'],
      selected_lines: [3],
    });
  });
});
