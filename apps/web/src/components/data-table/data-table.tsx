import { Fragment, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  useReactTable,
  type Column,
  type ColumnDef,
  type ColumnSizingState,
  type ExpandedState,
  type PaginationState,
  type Row,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { clsx } from 'clsx';
import { PAGE_SIZE_OPTIONS, VIRTUAL_OVERSCAN, VIRTUAL_ROW_ESTIMATE_PX } from '@opsdeck/shared';
import { Pagination } from './pagination';
import { SortIcon } from './sort-icon';
import { useWidth } from './use-width';
import { useSessionPreference } from './use-session-preference';
import { useScrollRegion } from '@/lib/use-scroll-region';


/** The keys that move between a table's rows, and where to. */
const ROW_KEYS: Readonly<Record<string, number | 'first' | 'last'>> = { ArrowDown: 1, ArrowUp: -1, Home: 'first', End: 'last' };

/** How the table fits a narrow screen, by column id. */
export interface DataTableLayout {
  /**
   * The column that takes the width the others leave, down to GROW_MIN_PX on a narrow screen: the one that names the
   * row. Without it every column keeps its size and wide screens share the rest out among them.
   */
  grow?: string;
  /** Columns hidden while the table is narrower than the given pixels, so the ones that matter stay in view. */
  hideBelow?: Readonly<Record<string, number>>;
}

export interface DataTablePagination {
  pageIndex: number;
  pageSize: number;
  /** Total rows on the server, from the Content-Range count. */
  totalCount: number;
  onPaginationChange: (next: PaginationState) => void;
}

export interface DataTableSorting {
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
}

export interface DataTableProps<TData> {
  /** Columns sort only when `sorting` is given and their `enableSorting` is not false. */
  columns: ColumnDef<TData>[];
  data: readonly TData[];
  /** Accessible name of the table. */
  label: string;
  isLoading?: boolean;
  emptyText?: ReactNode;
  getRowId?: (row: TData, index: number) => string;
  onRowClick?: (row: TData) => void;
  /**
   * Which rows `onRowClick` opens; the others are neither focusable nor pointer-styled, so a row with nothing to open
   * does not look as if it had. Every row by default.
   */
  isRowClickable?: (row: TData) => boolean;
  /** Server-side paging: the table asks for pages, the caller fetches them. */
  pagination?: DataTablePagination;
  /** Server-side sorting. */
  sorting?: DataTableSorting;
  /**
   * Virtual-list mode: no pager; when the last loaded row scrolls into view and the server has more, the page size
   * doubles (spec 000 §9). Needs `pagination`.
   */
  growPageSize?: boolean;
  /** Rows with detail underneath; the expanded set is remembered with the other preferences. */
  renderExpandedRow?: (row: Row<TData>) => ReactNode;
  /** sessionStorage key for scroll position, expanded rows and column sizes. */
  preferenceKey?: string;
  /** Height of the scrolling body; rows outside it are not rendered. */
  maxHeight?: string;
  layout?: DataTableLayout;
  className?: string;
}

interface ScrollMemory {
  top: number;
}

const SKELETON_ROWS = 5;
const SCROLL_SAVE_DELAY_MS = 200;
/** The narrowest the growing column gets; past that the table scrolls sideways in its own container. */
const GROW_MIN_PX = 200;

function resolve<T>(updater: Updater<T>, previous: T): T {
  return typeof updater === 'function' ? (updater as (previous: T) => T)(previous) : updater;
}

export function DataTable<TData>({
  columns,
  data,
  label,
  isLoading = false,
  emptyText = 'No data available',
  getRowId,
  onRowClick,
  isRowClickable,
  pagination,
  sorting,
  growPageSize = false,
  renderExpandedRow,
  preferenceKey,
  maxHeight = '70vh',
  layout,
  className,
}: DataTableProps<TData>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const [expanded, setExpanded] = useSessionPreference<ExpandedState>(preferenceKey && `${preferenceKey}.expanded`, {});
  const [columnSizing, setColumnSizing] = useSessionPreference<ColumnSizingState>(preferenceKey && `${preferenceKey}.columnSizing`, {});
  const [scrollMemory, setScrollMemory] = useSessionPreference<ScrollMemory>(preferenceKey && `${preferenceKey}.scroll`, { top: 0 });

  const paginationState: PaginationState = pagination
    ? { pageIndex: pagination.pageIndex, pageSize: pagination.pageSize }
    : { pageIndex: 0, pageSize: data.length };

  const table = useReactTable<TData>({
    data: data as TData[],
    columns,
    getRowId,
    state: { sorting: sorting?.sorting ?? [], pagination: paginationState, expanded, columnSizing },
    manualPagination: true,
    manualSorting: true,
    enableSorting: sorting !== undefined,
    enableColumnResizing: true,
    columnResizeMode: 'onChange',
    pageCount: pagination ? Math.ceil(pagination.totalCount / Math.max(1, pagination.pageSize)) : 1,
    getRowCanExpand: () => renderExpandedRow !== undefined,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    onSortingChange: (updater) => sorting?.onSortingChange(resolve(updater, sorting.sorting)),
    onPaginationChange: (updater) => pagination?.onPaginationChange(resolve(updater, paginationState)),
    onExpandedChange: (updater) => setExpanded((previous) => resolve(updater, previous)),
    onColumnSizingChange: (updater) => setColumnSizing((previous) => resolve(updater, previous)),
  });

  const rows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => VIRTUAL_ROW_ESTIMATE_PX,
    overscan: VIRTUAL_OVERSCAN,
    // The body grows with its rows up to maxHeight, so its first measured height is only the header; assume at least
    // a window's worth so the first render fills the view instead of growing a few rows per frame.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => callback({ width: rect.width, height: Math.max(rect.height, window.innerHeight) })),
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastVirtualIndex = virtualRows.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!growPageSize || !pagination || isLoading || rows.length === 0) return;
    const hasMore = rows.length < pagination.totalCount;
    const atEnd = lastVirtualIndex >= rows.length - 1;
    if (hasMore && atEnd) {
      const largest = PAGE_SIZE_OPTIONS[PAGE_SIZE_OPTIONS.length - 1] ?? pagination.pageSize;
      const nextSize = Math.min(pagination.pageSize * 2, Math.max(largest, pagination.totalCount));
      if (nextSize > pagination.pageSize) pagination.onPaginationChange({ pageIndex: 0, pageSize: nextSize });
    }
  }, [growPageSize, pagination, isLoading, rows.length, lastVirtualIndex]);

  // Restore once, after the first rows exist to scroll through.
  const restoredScroll = useRef(false);
  useEffect(() => {
    if (restoredScroll.current || rows.length === 0 || !scrollRef.current) return;
    restoredScroll.current = true;
    if (scrollMemory.top > 0) scrollRef.current.scrollTop = scrollMemory.top;
  }, [rows.length, scrollMemory.top]);

  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(saveTimer.current), []);
  const handleScroll = () => {
    if (!preferenceKey) return;
    clearTimeout(saveTimer.current);
    const top = scrollRef.current?.scrollTop ?? 0;
    saveTimer.current = setTimeout(() => setScrollMemory({ top }), SCROLL_SAVE_DELAY_MS);
  };

  // One Tab stop for the whole table (#36): the row last focused, else the first that opens; arrows move between rows.
  const [focusedRowId, setFocusedRowId] = useState<string | null>(null);
  const handleRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, open: () => void) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
      return;
    }
    const step = ROW_KEYS[event.key];
    if (step === undefined) return;
    const focusable = Array.from(event.currentTarget.closest('tbody')?.querySelectorAll<HTMLTableRowElement>('tr[data-row-id][tabindex]') ?? []);
    const at = focusable.indexOf(event.currentTarget);
    const next = step === 'first' ? focusable[0] : step === 'last' ? focusable.at(-1) : focusable[Math.min(Math.max(at + step, 0), focusable.length - 1)];
    if (next === undefined) return;
    event.preventDefault();
    next.focus();
  };

  const hideBelow = layout?.hideBelow ?? {};
  // Unmeasured (0), every column shows: hiding them until the first layout would make the table jump.
  const shownColumns = table.getVisibleLeafColumns().filter((column) => width === 0 || width >= (hideBelow[column.id] ?? 0));
  const shownIds = new Set(shownColumns.map((column) => column.id));
  const stickyId = shownColumns[0]?.id;
  const growId = layout?.grow;
  // Once resized by hand the growing column keeps the width it was given.
  const grows = (column: Column<TData>) => column.id === growId && columnSizing[column.id] === undefined;
  const widthOf = (column: Column<TData>) => (grows(column) ? undefined : column.getSize());
  const minTableWidth = shownColumns.reduce((sum, column) => sum + (grows(column) ? Math.min(column.getSize(), GROW_MIN_PX) : column.getSize()), 0);
  const columnCount = shownColumns.length;
  const paddingTop = virtualRows[0]?.start ?? 0;
  const paddingBottom = virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;
  const scrollRegion = useScrollRegion(scrollRef, label);
  const clickable = (item: TData) => onRowClick !== undefined && (isRowClickable?.(item) ?? true);
  const tabStopRowId = rows.some((row) => row.id === focusedRowId && clickable(row.original)) ? focusedRowId : (rows.find((row) => clickable(row.original))?.id ?? null);

  return (
    <div className={clsx('flex min-h-0 flex-col rounded-md border border-gray-200 bg-white', className)}>
      <div ref={scrollRef} onScroll={handleScroll} style={{ maxHeight }} className="min-h-0 overflow-auto focus-visible:outline-2 focus-visible:outline-blue-500" {...scrollRegion}>
        <table aria-label={label} aria-busy={isLoading || undefined} style={{ minWidth: minTableWidth }} className="w-full table-fixed border-collapse text-sm">
          <thead className="sticky top-0 z-10 bg-gray-50">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.filter((header) => shownIds.has(header.column.id)).map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      style={{ width: widthOf(header.column) }}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                      className={clsx(
                        'border-b border-gray-200 bg-gray-50 px-3 py-2 text-left text-xs font-semibold text-gray-600',
                        // The column that names the row stays in view while a narrow table scrolls sideways.
                        header.column.id === stickyId ? 'sticky left-0 z-20' : 'relative',
                      )}
                    >
                      {header.isPlaceholder ? null : canSort ? (
                        <button type="button" onClick={header.column.getToggleSortingHandler()} className="inline-flex items-center gap-1 hover:text-gray-900">
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <SortIcon sorted={sorted} />
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                      {header.column.getCanResize() && (
                        <span
                          aria-hidden="true"
                          onMouseDown={header.getResizeHandler()}
                          onTouchStart={header.getResizeHandler()}
                          className="absolute top-0 right-0 h-full w-1 cursor-col-resize select-none hover:bg-blue-300"
                        />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {isLoading &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                <tr key={`skeleton-${index}`} data-testid="skeleton-row">
                  {Array.from({ length: columnCount }, (__, cell) => (
                    <td key={cell} className="px-3 py-2">
                      <span className="block h-4 animate-pulse rounded bg-gray-200" />
                    </td>
                  ))}
                </tr>
              ))}
            {!isLoading && rows.length === 0 && (
              <tr>
                <td colSpan={columnCount} className="px-3 py-8 text-center text-gray-500">
                  {emptyText}
                </td>
              </tr>
            )}
            {!isLoading && paddingTop > 0 && (
              <tr aria-hidden="true">
                <td colSpan={columnCount} style={{ height: paddingTop, padding: 0 }} />
              </tr>
            )}
            {!isLoading &&
              virtualRows.map((virtualRow) => {
                const row = rows[virtualRow.index];
                if (!row) return null;
                const open = onRowClick && (isRowClickable?.(row.original) ?? true) ? () => onRowClick(row.original) : undefined;
                return (
                  <Fragment key={row.id}>
                    <tr
                      data-index={virtualRow.index}
                      data-row-id={row.id}
                      tabIndex={open ? (row.id === tabStopRowId ? 0 : -1) : undefined}
                      onFocus={open ? () => setFocusedRowId(row.id) : undefined}
                      onClick={open}
                      onKeyDown={open ? (event) => handleRowKeyDown(event, open) : undefined}
                      style={{ height: VIRTUAL_ROW_ESTIMATE_PX }}
                      className={clsx('group border-b border-gray-100', open && 'cursor-pointer hover:bg-gray-50 focus:bg-blue-50 focus:outline-none')}
                    >
                      {row
                        .getVisibleCells()
                        .filter((cell) => shownIds.has(cell.column.id))
                        .map((cell) => (
                          <td
                            key={cell.id}
                            style={{ width: widthOf(cell.column) }}
                            className={clsx(
                              'truncate px-3 py-1.5 text-gray-800',
                              // Opaque, or the cells scrolling under it would show through; it follows the row's highlight.
                              cell.column.id === stickyId && 'sticky left-0 z-[1] bg-white',
                              cell.column.id === stickyId && open && 'group-hover:bg-gray-50 group-focus:bg-blue-50',
                            )}
                          >
                            {flexRender(cell.column.columnDef.cell, cell.getContext())}
                          </td>
                        ))}
                    </tr>
                    {row.getIsExpanded() && renderExpandedRow && (
                      <tr className="bg-gray-50">
                        <td colSpan={columnCount} className="px-3 py-2">
                          {renderExpandedRow(row)}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            {!isLoading && paddingBottom > 0 && (
              <tr aria-hidden="true">
                <td colSpan={columnCount} style={{ height: paddingBottom, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {pagination && !growPageSize && (
        <Pagination
          pageIndex={pagination.pageIndex}
          pageSize={pagination.pageSize}
          totalCount={isLoading ? null : pagination.totalCount}
          onPageChange={(pageIndex) => pagination.onPaginationChange({ pageIndex, pageSize: pagination.pageSize })}
          onPageSizeChange={(pageSize) => pagination.onPaginationChange({ pageIndex: 0, pageSize })}
        />
      )}
    </div>
  );
}
