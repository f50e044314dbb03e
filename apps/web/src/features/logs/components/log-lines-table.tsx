import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { measureElement, observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { clsx } from 'clsx';
import { formatDate, isZeroDate, type LogLine } from '@opsdeck/shared';
import { useWidth } from '@/components/data-table/use-width';
import { splitMatches } from '../utils/highlight-matches';
import { LOG_COLUMNS, minColumnWidth, useLogColumnSizes, type LogColumn, type LogColumnId } from '../utils/log-columns';
import { LEVEL_EDGE_CLASSES, LEVEL_NAMES, lineLevel } from '../utils/log-levels';

/** Spec 000 §2: rows are estimated at 62 px and ten are rendered beyond each edge of the view. */
export const LOG_ROW_ESTIMATE_PX = 62;
export const LOG_ROW_OVERSCAN = 10;
/** How far Page Up and Page Down move the focused line. */
const PAGE_STEP = 10;
/** How far an arrow key on a column's resize handle moves its edge. */
const RESIZE_STEP_PX = 16;
/**
 * Narrower than the three columns' minimums together (a phone), a line is one cell: its time, then its message
 * wrapped to the width, then its labels. Side by side the columns would need a horizontal scroll to read a line.
 */
export const STACKED_BELOW_PX = LOG_COLUMNS.reduce((sum, column) => sum + column.minPx, 0);
const STACKED_COLUMNS = LOG_COLUMNS.filter((column) => column.id === 'message');
const STACKED_HEADER = 'Time, message and labels';

export interface LogLinesTableProps {
  lines: readonly LogLine[];
  selectedIds: ReadonlySet<string>;
  onToggleLine: (index: number) => void;
  /** Shift: select from the selection's anchor (or from `from`, the line the user was on) to `index`. */
  onSelectRange: (index: number, from: number) => void;
  onLabelClick: (key: string, value: string) => void;
  label: string;
  describedBy?: string;
  /** The searched text: its occurrences in each message are marked. */
  highlight?: string;
}

function formatLogTime(timestamp: string | null): string {
  if (timestamp === null) return '';
  // A value that is no date is shown as the backend sent it rather than hidden.
  return isZeroDate(timestamp) ? timestamp : formatDate(timestamp, 'datetime-seconds');
}

/** A row not laid out (jsdom, a hidden tab) measures 0 px; counting it as the estimate keeps the window a window. */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const size = measureElement(element, entry, instance);
  return size > 0 ? size : LOG_ROW_ESTIMATE_PX;
}

interface LogRowProps {
  line: LogLine;
  index: number;
  selected: boolean;
  /** The one row Tab stops at; its label chips are the only ones in the tab order. */
  tabbable: boolean;
  measure: (node: HTMLTableRowElement | null) => void;
  onRowClick: (index: number, event: MouseEvent<HTMLTableRowElement>) => void;
  onRowKeyDown: (index: number, event: KeyboardEvent<HTMLTableRowElement>) => void;
  onRowFocus: (index: number) => void;
  onLabelClick: (key: string, value: string) => void;
  highlight: string;
  stacked: boolean;
}

/** The message with each occurrence of the search in <mark>: the text is split, never read as markup. */
function MessageText({ message, highlight }: { message: string; highlight: string }) {
  const parts = splitMatches(message, highlight);
  if (parts.length === 1 && parts[0]?.match === false) return message;
  return parts.map((part, index) =>
    part.match ? (
      // The parts of one message in order: the index is a part's identity.
      <mark key={index} className="rounded-sm bg-yellow-200 text-inherit">
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}

/**
 * One line. Memoized on its props, which stay the same object for every row but the ones whose selection or focus
 * changed, so a click or a scroll re-renders a handful of rows rather than the window.
 */
const LogRow = memo(function LogRow({ line, index, selected, tabbable, measure, onRowClick, onRowKeyDown, onRowFocus, onLabelClick, highlight, stacked }: LogRowProps) {
  const labels = Object.entries(line.labels);
  const level = lineLevel(line);
  const time = line.timestamp !== null && <time dateTime={line.timestamp}>{formatLogTime(line.timestamp)}</time>;
  const message = <MessageText message={line.message} highlight={highlight} />;
  const chips = labels.length > 0 && (
    <ul aria-label="Labels" className="flex flex-wrap gap-1">
      {labels.map(([key, value]) => (
        <li key={key} className="min-w-0 max-w-full">
          <button
            type="button"
            tabIndex={tabbable ? 0 : -1}
            title={`Show only lines with ${key}=${value}`}
            onClick={(event) => {
              // The chip filters; it must not also select the line.
              event.stopPropagation();
              onLabelClick(key, value);
            }}
            className="max-w-full truncate rounded bg-gray-100 px-1.5 py-0.5 text-left font-mono text-[0.6875rem] text-gray-700 hover:bg-blue-100 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-blue-500"
          >
            {key}={value}
          </button>
        </li>
      ))}
    </ul>
  );
  // The level's colour is a bar down the line's first cell, as log explorers draw it; its name is in the labels.
  const levelEdge = level === null ? undefined : LEVEL_EDGE_CLASSES[level];
  const messageClass = 'font-mono text-xs whitespace-pre-wrap wrap-anywhere text-gray-900';
  return (
    <tr
      ref={measure}
      data-index={index}
      data-level={level ?? undefined}
      aria-rowindex={index + 2}
      aria-selected={selected}
      tabIndex={tabbable ? 0 : -1}
      onClick={(event) => onRowClick(index, event)}
      onKeyDown={(event) => onRowKeyDown(index, event)}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onRowFocus(index);
      }}
      className={clsx(
        'cursor-pointer border-b border-gray-100 align-top focus:outline-2 focus:-outline-offset-2 focus:outline-blue-500',
        selected ? 'bg-blue-50 hover:bg-blue-100' : 'hover:bg-gray-50',
      )}
    >
      {stacked ? (
        <td className={clsx('px-3 py-1.5', levelEdge)}>
          <div className="flex min-w-0 flex-col gap-1">
            <span className="font-mono text-xs text-gray-600">
              {time}
              {level !== null && <span className="sr-only"> {LEVEL_NAMES[level]}</span>}
            </span>
            <span className={messageClass}>{message}</span>
            {chips}
          </div>
        </td>
      ) : (
        <>
          <td className={clsx('px-3 py-1.5 font-mono text-xs whitespace-nowrap text-gray-600', levelEdge)}>
            {time}
            {level !== null && <span className="sr-only"> {LEVEL_NAMES[level]}</span>}
          </td>
          <td className={clsx('px-3 py-1.5', messageClass)}>{message}</td>
          <td className="px-3 py-1.5">{chips}</td>
        </>
      )}
    </tr>
  );
});

interface ResizeHandleProps {
  column: LogColumn;
  width: number;
  onResize: (id: LogColumnId, px: number) => void;
}

/** A column's right edge: dragged with a pointer, or moved with the arrow keys once focused. */
function ResizeHandle({ column, width, onResize }: ResizeHandleProps) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const handlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    drag.current = { x: event.clientX, width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    onResize(column.id, drag.current.width + event.clientX - drag.current.x);
  };
  const handlePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    onResize(column.id, width + (event.key === 'ArrowRight' ? RESIZE_STEP_PX : -RESIZE_STEP_PX));
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${column.header} column`}
      aria-valuenow={width}
      aria-valuemin={minColumnWidth(column.id)}
      tabIndex={0}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerUp}
      onPointerCancel={handlePointerUp}
      onKeyDown={handleKeyDown}
      className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize touch-none select-none hover:bg-blue-300 focus-visible:bg-blue-400 focus-visible:outline-none"
    />
  );
}

/**
 * The lines in a virtualized grid: only the rows in view (and ten either side) are in the DOM, so 100,000 lines
 * scroll like a hundred. Rows are measured once rendered, so a long message wraps instead of being cut.
 * Keyboard: the arrows, Home, End and the page keys move between lines, Space selects, Shift extends a range.
 */
export function LogLinesTable({ lines, selectedIds, onToggleLine, onSelectRange, onLabelClick, label, describedBy, highlight = '' }: LogLinesTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const { widths, resize } = useLogColumnSizes(width);
  // 0 until measured (and in jsdom): the columns, until a real width says the screen is narrow.
  const stacked = width > 0 && width < STACKED_BELOW_PX;
  const columns = stacked ? STACKED_COLUMNS : LOG_COLUMNS;
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LOG_ROW_ESTIMATE_PX,
    overscan: LOG_ROW_OVERSCAN,
    getItemKey: (index) => lines[index]?.id ?? index,
    measureElement: measureRow,
    // Before layout (the first render, a container still collapsed) the view measures 0 px and would show no row;
    // a window's height is assumed until it is measured taller, which costs a few rows more at most.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => callback({ width: rect.width, height: Math.max(rect.height, window.innerHeight) })),
  });
  const virtualRows = virtualizer.getVirtualItems();
  const activeIndex = Math.min(active, Math.max(lines.length - 1, 0));

  // Refs for the row handlers, which stay the same functions so memoized rows do not re-render on every change.
  const state = useRef({ lines, activeIndex, onToggleLine, onSelectRange });
  useEffect(() => {
    state.current = { lines, activeIndex, onToggleLine, onSelectRange };
  });

  // A line reached by the keyboard may only now have been rendered: focus it once it is in the DOM.
  useEffect(() => {
    if (!focusPending.current) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${activeIndex}"]`);
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const moveTo = useCallback(
    (index: number, extend: boolean) => {
      const { lines: current, activeIndex: from, onSelectRange: select } = state.current;
      const next = Math.min(Math.max(index, 0), current.length - 1);
      if (next < 0) return;
      setActive(next);
      focusPending.current = true;
      virtualizer.scrollToIndex(next, { align: 'auto' });
      if (extend) select(next, from);
    },
    [virtualizer],
  );

  const handleRowClick = useCallback((index: number, event: MouseEvent<HTMLTableRowElement>) => {
    // Dragging across a message to copy it is not a click on the line.
    if ((window.getSelection()?.toString() ?? '') !== '') return;
    const { activeIndex: from, onToggleLine: toggle, onSelectRange: select } = state.current;
    setActive(index);
    if (event.shiftKey) select(index, from);
    else toggle(index);
  }, []);

  const handleRowKeyDown = useCallback(
    (index: number, event: KeyboardEvent<HTMLTableRowElement>) => {
      if (event.target !== event.currentTarget) return;
      const { lines: current, onToggleLine: toggle, onSelectRange: select } = state.current;
      const steps: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + PAGE_STEP, PageUp: index - PAGE_STEP, Home: 0, End: current.length - 1 };
      const target = steps[event.key];
      if (target !== undefined) {
        event.preventDefault();
        moveTo(target, event.shiftKey);
      } else if (event.key === ' ') {
        event.preventDefault();
        if (event.shiftKey) select(index, index);
        else toggle(index);
      }
    },
    [moveTo],
  );

  const handleRowFocus = useCallback((index: number) => setActive(index), []);

  const renderedIndexes = virtualRows.map((row) => row.index);
  // Tab reaches the line last used when it is on screen, or the first line in view.
  const tabStop = renderedIndexes.includes(activeIndex) ? activeIndex : (renderedIndexes[0] ?? 0);
  // Stacked, the one cell is the view's width whatever widths were saved on a wider screen.
  const totalWidth = stacked ? '100%' : LOG_COLUMNS.reduce((sum, column) => sum + widths[column.id], 0);
  const paddingTop = virtualRows[0]?.start ?? 0;
  const paddingBottom = virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;

  return (
    <div ref={scrollRef} className="min-h-80 flex-1 overflow-auto rounded-md border border-gray-200 bg-white">
      <table
        role="grid"
        aria-label={label}
        aria-describedby={describedBy}
        aria-multiselectable="true"
        aria-rowcount={lines.length + 1}
        style={{ width: totalWidth }}
        className="table-fixed border-collapse text-sm"
      >
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={{ width: stacked ? '100%' : widths[column.id] }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-gray-50">
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column.id} scope="col" className="relative border-b border-gray-200 bg-gray-50 px-3 py-2 text-left text-xs font-semibold text-gray-600">
                {stacked ? STACKED_HEADER : column.header}
                {!stacked && <ResizeHandle column={column} width={widths[column.id]} onResize={resize} />}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingTop, padding: 0 }} />
            </tr>
          )}
          {virtualRows.map((virtualRow) => {
            const line = lines[virtualRow.index];
            if (line === undefined) return null;
            return (
              <LogRow
                key={virtualRow.key}
                line={line}
                index={virtualRow.index}
                selected={selectedIds.has(line.id)}
                tabbable={virtualRow.index === tabStop}
                measure={virtualizer.measureElement}
                onRowClick={handleRowClick}
                onRowKeyDown={handleRowKeyDown}
                onRowFocus={handleRowFocus}
                onLabelClick={onLabelClick}
                highlight={highlight}
                stacked={stacked}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
