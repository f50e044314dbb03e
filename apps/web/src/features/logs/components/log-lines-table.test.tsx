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
function Harness({ lines, onLabelClick = vi.fn(), highlight }: { lines: readonly LogLine[]; onLabelClick?: (key: string, value: string) => void; highlight?: string }) {
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
        highlight={highlight}
      />
    </>
  );
}

const bodyRows = () => within(screen.getByRole('grid', { name: 'Log lines' })).getAllByRole('row').filter((row) => row.closest('tbody') && !row.hasAttribute('aria-hidden'));
const selected = () => screen.getByTestId('selected').textContent?.split(',').filter((id) => id !== '') ?? [];

const PolyfilledResizeObserver = window.ResizeObserver;

/** Every observed element reports `width`: the layout jsdom does not do, for the table's measured width. */
function observeWidth(width: number): void {
  class FixedWidthObserver {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element): void {
      const entry = { target, contentRect: new DOMRect(0, 0, width, 600) } as unknown as ResizeObserverEntry;
      this.callback([entry], this as unknown as ResizeObserver);
    }
    unobserve(): void {}
    disconnect(): void {}
  }
  // Assigned: the polyfill's property is writable but not configurable.
  window.ResizeObserver = FixedWidthObserver as unknown as typeof ResizeObserver;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.ResizeObserver = PolyfilledResizeObserver;
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

  it('colours each line by its level with a bar down its first cell, and names the level for screen readers', () => {
    const lines: LogLine[] = [
      { id: 'e', timestamp: '2024-01-01T12:00:03Z', message: 'boom', labels: { level: 'error' } },
      { id: 'w', timestamp: '2024-01-01T12:00:02Z', message: 'slow', labels: { level: 'WARNING' } },
      { id: 'i', timestamp: '2024-01-01T12:00:01Z', message: 'ok', labels: { level: 'info' } },
      { id: 'n', timestamp: '2024-01-01T12:00:00Z', message: 'plain', labels: {} },
    ];
    render(<Harness lines={lines} />);
    const [error, warn, info, plain] = bodyRows();
    expect(error).toHaveAttribute('data-level', 'error');
    expect(error?.querySelector('td')).toHaveClass('shadow-[inset_4px_0_0_0_var(--color-red-500)]');
    expect(within(error ?? document.body).getByText('Error')).toHaveClass('sr-only');
    expect(warn?.querySelector('td')).toHaveClass('shadow-[inset_4px_0_0_0_var(--color-amber-500)]');
    expect(info?.querySelector('td')).toHaveClass('shadow-[inset_4px_0_0_0_var(--color-green-500)]');
    expect(plain).not.toHaveAttribute('data-level');
    expect(plain?.querySelector('td')?.className).not.toMatch(/shadow-/);
  });

  it('marks each occurrence of the searched text in a message, and shows markup in a message as text', () => {
    const lines: LogLine[] = [
      { id: 'a', timestamp: null, message: 'Timeout calling payments; retry after timeout', labels: {} },
      { id: 'b', timestamp: null, message: '<b>timeout</b> in <script>alert(1)</script>', labels: {} },
    ];
    const { container } = render(<Harness lines={lines} highlight="timeout" />);
    const [first, second] = bodyRows();
    expect([...(first?.querySelectorAll('mark') ?? [])].map((mark) => mark.textContent)).toEqual(['Timeout', 'timeout']);
    expect(first).toHaveTextContent('Timeout calling payments; retry after timeout');
    expect([...(second?.querySelectorAll('mark') ?? [])].map((mark) => mark.textContent)).toEqual(['timeout']);
    expect(second).toHaveTextContent('<b>timeout</b> in <script>alert(1)</script>');
    expect(container.querySelector('b, script')).toBeNull();
  });

  it('marks nothing without a search', () => {
    const { container } = render(<Harness lines={makeLines(3)} />);
    expect(container.querySelector('mark')).toBeNull();
  });

  it('puts time, message and labels in one cell the width of a phone, so a long line wraps instead of scrolling sideways', () => {
    localStorage.setItem(LOG_COLUMN_SIZES_STORAGE_KEY, JSON.stringify({ time: 200, message: 900, labels: 300 }));
    observeWidth(358);
    const long = `GET /api/checkout?cart=${'x'.repeat(300)} answered 502`;
    render(<Harness lines={[{ id: 'l', timestamp: '2024-01-01T12:00:00Z', message: long, labels: { app: 'web' } }]} />);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Time, message and labels']);
    expect(screen.queryByRole('separator')).not.toBeInTheDocument();
    expect(screen.getByRole('grid')).toHaveStyle({ width: '100%' });
    const [row] = bodyRows();
    const cells = row?.querySelectorAll('td') ?? [];
    expect(cells).toHaveLength(1);
    expect(within(cells[0] as HTMLElement).getByRole('time')).toBeInTheDocument();
    expect(within(cells[0] as HTMLElement).getByText(long)).toHaveClass('whitespace-pre-wrap', 'wrap-anywhere');
    expect(within(cells[0] as HTMLElement).getByRole('button', { name: 'app=web' })).toBeInTheDocument();
  });

  it('keeps the three columns where they fit', () => {
    observeWidth(1200);
    render(<Harness lines={makeLines(2)} />);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Time', 'Message', 'Labels']);
  });
});
