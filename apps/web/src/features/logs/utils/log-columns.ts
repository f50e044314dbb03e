import { useCallback, useEffect, useRef, useState } from 'react';

export const LOG_COLUMN_IDS = ['time', 'message', 'labels'] as const;
export type LogColumnId = (typeof LOG_COLUMN_IDS)[number];
export type LogColumnWidths = Readonly<Record<LogColumnId, number>>;

export interface LogColumn {
  id: LogColumnId;
  header: string;
  /** Spec 000 §2's default widths, as shares of the table's width: Time 5, Message 300, Labels 100. */
  weight: number;
  /** The narrowest the column is laid out or resized to, so a timestamp or a chip stays readable. */
  minPx: number;
}

export const LOG_COLUMNS: readonly LogColumn[] = [
  { id: 'time', header: 'Time', weight: 5, minPx: 170 },
  { id: 'message', header: 'Message', weight: 300, minPx: 240 },
  { id: 'labels', header: 'Labels', weight: 100, minPx: 140 },
];

/** Column sizes are kept in the browser across sessions (spec 000 §2), saved once a resize has settled. */
export const LOG_COLUMN_SIZES_STORAGE_KEY = 'opsdeck.logs.columnSizes';
export const LOG_COLUMN_SIZES_SAVE_DELAY_MS = 500;
/** The width assumed before the table has been measured. */
const UNMEASURED_WIDTH_PX = 1024;

/**
 * The default widths for a table `available` pixels wide: each column its share by weight, but never less than its
 * minimum; a column held at its minimum leaves the rest to be shared by the others. The spec's Time share of 5 in 405
 * is always below a timestamp's width, so Time sits at its minimum and Message and Labels split the rest 3 to 1.
 */
export function defaultColumnWidths(available: number): LogColumnWidths {
  const width = available > 0 ? available : UNMEASURED_WIDTH_PX;
  const fixed = new Map<LogColumnId, number>();
  let changed = true;
  while (changed) {
    changed = false;
    const free = LOG_COLUMNS.filter((column) => !fixed.has(column.id));
    const rest = width - [...fixed.values()].reduce((sum, px) => sum + px, 0);
    const weights = free.reduce((sum, column) => sum + column.weight, 0);
    for (const column of free) {
      if ((rest * column.weight) / weights < column.minPx) {
        fixed.set(column.id, column.minPx);
        changed = true;
      }
    }
  }
  const rest = width - [...fixed.values()].reduce((sum, px) => sum + px, 0);
  const weights = LOG_COLUMNS.filter((column) => !fixed.has(column.id)).reduce((sum, column) => sum + column.weight, 0);
  const result: Record<LogColumnId, number> = { time: 0, message: 0, labels: 0 };
  for (const column of LOG_COLUMNS) result[column.id] = fixed.get(column.id) ?? Math.floor((rest * column.weight) / weights);
  return result;
}

export function minColumnWidth(id: LogColumnId): number {
  return LOG_COLUMNS.find((column) => column.id === id)?.minPx ?? 0;
}

function isWidths(value: unknown): value is LogColumnWidths {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return LOG_COLUMN_IDS.every((id) => typeof record[id] === 'number' && Number.isFinite(record[id]) && record[id] > 0);
}

export function readStoredColumnWidths(): LogColumnWidths | null {
  try {
    const raw = localStorage.getItem(LOG_COLUMN_SIZES_STORAGE_KEY);
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    return isWidths(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export interface LogColumnSizes {
  widths: LogColumnWidths;
  /** Sets one column's width in pixels (at least its minimum); the others keep the widths they have now. */
  resize: (id: LogColumnId, px: number) => void;
  /** Back to the defaults, which follow the table's width again. */
  reset: () => void;
  isCustom: boolean;
}

/**
 * The table's column widths: the defaults, which follow the table's width, until the user resizes a column; from
 * then on the widths they set, kept in localStorage (written 500 ms after the last change, so a drag writes once).
 */
export function useLogColumnSizes(available: number): LogColumnSizes {
  const [custom, setCustom] = useState<LogColumnWidths | null>(readStoredColumnWidths);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const widths = custom ?? defaultColumnWidths(available);
  const latest = useRef(widths);
  useEffect(() => {
    latest.current = widths;
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const save = useCallback((next: LogColumnWidths | null) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (next === null) localStorage.removeItem(LOG_COLUMN_SIZES_STORAGE_KEY);
      else localStorage.setItem(LOG_COLUMN_SIZES_STORAGE_KEY, JSON.stringify(next));
    }, LOG_COLUMN_SIZES_SAVE_DELAY_MS);
  }, []);

  const resize = useCallback(
    (id: LogColumnId, px: number) => {
      const next = { ...latest.current, [id]: Math.max(minColumnWidth(id), Math.round(px)) };
      latest.current = next;
      setCustom(next);
      save(next);
    },
    [save],
  );
  const reset = useCallback(() => {
    setCustom(null);
    save(null);
  }, [save]);
  return { widths, resize, reset, isCustom: custom !== null };
}
