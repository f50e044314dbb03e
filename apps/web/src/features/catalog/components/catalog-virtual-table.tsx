import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { clsx } from 'clsx';
import { SortIcon } from '@/components/data-table/sort-icon';
import { useWidth } from '@/components/data-table/use-width';
import type { SortOrder } from '../utils/catalog-params';
import { CATALOG_OVERSCAN, CATALOG_ROW_HEIGHT_PX } from '../utils/catalog-format';

export interface CatalogColumn<TRow> {
  id: string;
  header: string;
  /** Width in pixels; the `grow` column takes what the others leave. */
  width: number;
  cell: (row: TRow) => ReactNode;
  sortable?: boolean;
  /** Hidden while the table is narrower than this many pixels, so the columns that matter stay in view on a phone. */
  hideBelow?: number;
}

export interface CatalogTableSort {
  sortBy: string;
  sortOrder: SortOrder;
  onSort: (columnId: string) => void;
}

export interface CatalogVirtualTableProps<TRow> {
  label: string;
  columns: readonly CatalogColumn<TRow>[];
  rows: readonly TRow[];
  getRowId: (row: TRow) => string;
  onRowClick: (row: TRow) => void;
  isLoading: boolean;
  emptyText: ReactNode;
  grow: string;
  sort: CatalogTableSort;
  rowClassName?: (row: TRow) => string | undefined;
  /** Called when the last loaded row comes into view, to fetch the next page. */
  onEndReached?: () => void;
}

const SKELETON_ROWS = 5;
const GROW_MIN_PX = 200;

/**
 * The catalog's tables: rows of spec 002 §2.1's 37 px with 20 rendered beyond each edge, where the shared DataTable
 * follows spec 000's 35 px and 10. Sorting and paging are the server's; the table only reports clicks and the end.
 */
export function CatalogVirtualTable<TRow>({
  label,
  columns,
  rows,
  getRowId,
  onRowClick,
  isLoading,
  emptyText,
  grow,
  sort,
  rowClassName,
  onEndReached,
}: CatalogVirtualTableProps<TRow>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CATALOG_ROW_HEIGHT_PX,
    overscan: CATALOG_OVERSCAN,
    // The body grows with its rows, so its first measured height is only the header; a window's worth fills the view.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => callback({ width: rect.width, height: Math.max(rect.height, window.innerHeight) })),
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!isLoading && rows.length > 0 && lastIndex >= rows.length - 1) onEndReached?.();
  }, [isLoading, rows.length, lastIndex, onEndReached]);

  // Unmeasured (0), every column shows, or the table would jump after the first layout.
  const shown = columns.filter((column) => width === 0 || width >= (column.hideBelow ?? 0));
  const minWidth = shown.reduce((sum, column) => sum + (column.id === grow ? GROW_MIN_PX : column.width), 0);
  const paddingTop = virtualRows[0]?.start ?? 0;
  const paddingBottom = virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;

  const handleKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: TRow) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onRowClick(row);
  };

  return (
    <div className="flex min-h-0 flex-col rounded-md border border-gray-200 bg-white">
      <div ref={scrollRef} style={{ maxHeight: 'calc(100vh - 14rem)' }} className="min-h-0 overflow-auto">
        <table aria-label={label} aria-busy={isLoading || undefined} style={{ minWidth }} className="w-full table-fixed border-collapse text-sm">
          <thead className="sticky top-0 z-10 bg-gray-50">
            <tr>
              {shown.map((column, index) => {
                const sorted = sort.sortBy === column.id ? sort.sortOrder : null;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    style={{ width: column.id === grow ? undefined : column.width }}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : column.sortable ? 'none' : undefined}
                    className={clsx(
                      'border-b border-gray-200 bg-gray-50 px-3 py-2 text-left text-xs font-semibold whitespace-nowrap text-gray-600',
                      index === 0 && 'sticky left-0 z-20',
                    )}
                  >
                    {column.sortable ? (
                      <button type="button" onClick={() => sort.onSort(column.id)} className="inline-flex items-center gap-1 hover:text-gray-900">
                        {column.header}
                        <SortIcon sorted={sorted} />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {isLoading &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                <tr key={`skeleton-${index}`} data-testid="skeleton-row">
                  {shown.map((column) => (
                    <td key={column.id} className="px-3 py-2">
                      <span className="block h-4 animate-pulse rounded bg-gray-200" />
                    </td>
                  ))}
                </tr>
              ))}
            {!isLoading && rows.length === 0 && (
              <tr>
                <td colSpan={shown.length} className="px-3 py-8 text-center text-gray-500">
                  {emptyText}
                </td>
              </tr>
            )}
            {!isLoading && paddingTop > 0 && (
              <tr aria-hidden="true">
                <td colSpan={shown.length} style={{ height: paddingTop, padding: 0 }} />
              </tr>
            )}
            {!isLoading &&
              virtualRows.map((virtualRow) => {
                const row = rows[virtualRow.index];
                if (row === undefined) return null;
                return (
                  <tr
                    key={getRowId(row)}
                    data-index={virtualRow.index}
                    tabIndex={0}
                    onClick={() => onRowClick(row)}
                    onKeyDown={(event) => handleKeyDown(event, row)}
                    style={{ height: CATALOG_ROW_HEIGHT_PX }}
                    className={clsx('group cursor-pointer border-b border-gray-100 hover:bg-gray-50 focus:bg-blue-50 focus:outline-none', rowClassName?.(row))}
                  >
                    {shown.map((column, index) => (
                      <td
                        key={column.id}
                        style={{ width: column.id === grow ? undefined : column.width }}
                        className={clsx(
                          'truncate px-3 py-1.5',
                          // Opaque, or the cells scrolling under it would show through; it follows the row's highlight.
                          index === 0 && 'sticky left-0 z-[1] bg-white group-hover:bg-gray-50 group-focus:bg-blue-50',
                        )}
                      >
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                );
              })}
            {!isLoading && paddingBottom > 0 && (
              <tr aria-hidden="true">
                <td colSpan={shown.length} style={{ height: paddingBottom, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
