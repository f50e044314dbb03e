import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LogLine } from '@opsdeck/shared';
import { EMPTY_SELECTION, selectRange, selectionFor, toggleLine } from '../utils/line-selection';
import { LOG_COLUMN_SIZES_STORAGE_KEY } from '../utils/log-columns';
import { LogLinesTable } from './log-lines-table';

function makeLines(count: number): LogLine[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `l${index}`,
    timestamp: new Date(Date.UTC(2024, 0, 1, 12, 0, 0) - index * 1000).toISOString(),
    message: `line ${index}`,
    labels: { app: 'web', pod: `web-${index % 3}` },
  }));
}

/** The table with the selection kept as the page keeps it. */
function Harness({ lines, onLabelClick = vi.fn() }: { lines: readonly LogLine[]; onLabelClick?: (key: string, value: string) => void }) {
  const [selection, setSelection] = useState(EMPTY_SELECTION);
  return (
    <>
      <output data-testid="selected">{[...selectionFor(selection, lines).ids].join(',')}</output>
      <LogLinesTable
        lines={lines}
        selectedIds={selectionFor(selection, lines).ids}
        onToggleLine={(index) => setSelection((previous) => toggleLine(previous, lines, index))}
        onSelectRange={(index, from) => setSelection((previous) => selectRange(previous, lines, index, from))}
        onLabelClick={onLabelClick}
        label="Log lines"
      />
    </>
  );
}

const bodyRows = () => within(screen.getByRole('grid', { name: 'Log lines' })).getAllByRole('row').filter((row) => row.closest('tbody') && !row.hasAttribute('aria-hidden'));
const selected = () => screen.getByTestId('selected').textContent?.split(',').filter((id) => id !== '') ?? [];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('LogLinesTable', () => {
  it('keeps only a window of rows in the DOM for 100,000 lines', () => {
    // jsdom's 768 px window holds thirteen rows of 62 px; ten more are rendered beyond its edge.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(620);
    const lines = makeLines(100_000);
    render(<Harness lines={lines} />);
    const rows = bodyRows();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.length).toBeLessThanOrEqual(30);
    expect(screen.getByText('line 0')).toBeInTheDocument();
    expect(screen.queryByText('line 99999')).not.toBeInTheDocument();
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '100001');
  });

  it('shows time, message and labels as chips, and a chip click reports its label without selecting the line', async () => {
    const user = userEvent.setup();
    const onLabelClick = vi.fn();
    render(<Harness lines={makeLines(3)} onLabelClick={onLabelClick} />);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Time', 'Message', 'Labels']);
    const [first] = bodyRows();
    if (first === undefined) throw new Error('no rows');
    expect(within(first).getByText('line 0')).toBeInTheDocument();
    expect(within(first).getByRole('time')).toHaveAttribute('datetime', '2024-01-01T12:00:00.000Z');
    await user.click(within(first).getByRole('button', { name: 'pod=web-0' }));
    expect(onLabelClick).toHaveBeenCalledWith('pod', 'web-0');
    expect(selected()).toEqual([]);
  });

  it('selects lines by click and Shift-click ranges', async () => {
    const user = userEvent.setup();
    render(<Harness lines={makeLines(20)} />);
    await user.click(screen.getByText('line 2'));
    expect(selected()).toEqual(['l2']);
    await user.keyboard('{Shift>}');
    await user.click(screen.getByText('line 5'));
    await user.keyboard('{/Shift}');
    expect(selected().sort()).toEqual(['l2', 'l3', 'l4', 'l5']);
    expect(bodyRows()[4]).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByText('line 3'));
    expect(selected().sort()).toEqual(['l2', 'l4', 'l5']);
  });

  it('moves between lines with the arrows and selects with Space and Shift', async () => {
    const user = userEvent.setup();
    render(<Harness lines={makeLines(20)} />);
    // Past the three column resize handles, Tab stops at the first line.
    for (let press = 0; press < 4; press += 1) await user.tab();
    expect(bodyRows()[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(bodyRows()[2]).toHaveFocus();
    await user.keyboard(' ');
    expect(selected()).toEqual(['l2']);
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(bodyRows()[4]).toHaveFocus();
    expect(selected().sort()).toEqual(['l2', 'l3', 'l4']);
    await user.keyboard('{ArrowUp} ');
    expect(selected().sort()).toEqual(['l2', 'l4']);
  });

  it('resizes a column from the keyboard and saves the widths 500 ms later', () => {
    vi.useFakeTimers();
    render(<Harness lines={makeLines(3)} />);
    const handle = screen.getByRole('separator', { name: 'Resize Message column' });
    const before = Number(handle.getAttribute('aria-valuenow'));
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(Number(handle.getAttribute('aria-valuenow'))).toBe(before + 16);
    act(() => vi.advanceTimersByTime(499));
    expect(localStorage.getItem(LOG_COLUMN_SIZES_STORAGE_KEY)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(JSON.parse(localStorage.getItem(LOG_COLUMN_SIZES_STORAGE_KEY) ?? '{}')).toMatchObject({ message: before + 16 });
  });

  it('lays the columns out at the widths saved before', () => {
    localStorage.setItem(LOG_COLUMN_SIZES_STORAGE_KEY, JSON.stringify({ time: 200, message: 500, labels: 220 }));
    render(<Harness lines={makeLines(3)} />);
    expect(screen.getByRole('separator', { name: 'Resize Time column' })).toHaveAttribute('aria-valuenow', '200');
    expect(screen.getByRole('grid')).toHaveStyle({ width: '920px' });
  });
});
