import { describe, expect, it } from 'vitest';
import type { LogLine } from '@opsdeck/shared';
import { EMPTY_SELECTION, selectRange, selectedIndexes, selectionFor, toggleLine } from './line-selection';
import { logEvidence } from './log-evidence';

const lines: LogLine[] = Array.from({ length: 12 }, (_, index) => ({
  id: `l${index}`,
  timestamp: index === 0 ? null : `2024-01-01T12:00:${String(60 - index).padStart(2, '0')}Z`,
  message: `m${index}`,
  labels: { n: String(index) },
}));

describe('line selection', () => {
  it('toggles lines and adds Shift ranges from the anchor', () => {
    let selection = toggleLine(EMPTY_SELECTION, lines, 2);
    selection = selectRange(selection, lines, 5);
    expect(selectedIndexes(selection, lines)).toEqual([2, 3, 4, 5]);
    selection = toggleLine(selection, lines, 3);
    expect(selectedIndexes(selection, lines)).toEqual([2, 4, 5]);
  });

  it('starts a range without an anchor from the line the keyboard was on', () => {
    expect(selectedIndexes(selectRange(EMPTY_SELECTION, lines, 4, 1), lines)).toEqual([1, 2, 3, 4]);
  });

  it('carries a selection to another list by content: a line with the same id, time and message stays selected, the anchor follows its line', () => {
    const selection = selectRange(toggleLine(EMPTY_SELECTION, lines, 2), lines, 4);
    // A new answer: one line newer on top, the same lines after it as new objects, line 3 rewritten under its id.
    const newer: LogLine = { id: 'l-new', timestamp: '2024-01-01T12:01:00Z', message: 'new', labels: {} };
    const next = [newer, ...lines.map((line) => (line.id === 'l3' ? { ...line, message: 'other text' } : { ...line }))];
    const carried = selectionFor(selection, next);
    expect(selectedIndexes(carried, next)).toEqual([3, 5]);
    expect(carried.anchor).toBe(3);
    expect(selectedIndexes(selectRange(carried, next, 1), next)).toEqual([1, 2, 3, 5]);
    // Lines another list does not hold (a label filter, a new search) are dropped with their anchor.
    const filtered = selectionFor(selection, lines.slice(5));
    expect(filtered.ids.size).toBe(0);
    expect(filtered.anchor).toBeNull();
    expect(selectionFor(EMPTY_SELECTION, next).ids.size).toBe(0);
  });
});

describe('logEvidence', () => {
  it('keeps the selected lines with three lines of context either side, in the order shown', () => {
    const evidence = logEvidence({ subject: { kind: 'component', id: 'c1', name: 'api' }, selector: 'pods', start: '1h', lines, selected: [0, 9] });
    expect(evidence.type).toBe('log');
    expect(evidence.component_id).toBe('c1');
    expect(evidence.description).toBe('Logs of api (pods)');
    const payload = evidence.evidence as { lines: { message: string; timestamp?: string }[]; selected_lines: number[]; start: string };
    expect(payload.lines.map((kept) => kept.message)).toEqual(['m0', 'm1', 'm2', 'm3', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
    expect(payload.selected_lines).toEqual([0, 7]);
    expect(payload.start).toBe('1h');
    // A line without a time is stored without one, and the answer's line ids are not stored.
    expect(payload.lines[0]).toEqual({ message: 'm0', labels: { n: '0' } });
    expect(payload.lines[1]).toEqual({ timestamp: '2024-01-01T12:00:59Z', message: 'm1', labels: { n: '1' } });
  });

  it('points the evidence of a config item at the item, not at a component', () => {
    const evidence = logEvidence({ subject: { kind: 'config', id: 'i1', name: 'checkout' }, selector: 'pods', start: '1h', lines, selected: [2] });
    expect(evidence.config_id).toBe('i1');
    expect(evidence).not.toHaveProperty('component_id');
    expect(evidence.description).toBe('Logs of checkout (pods)');
  });
});
