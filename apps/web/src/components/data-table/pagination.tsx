import { useEffect, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { PAGE_SIZE_OPTIONS } from '@opsdeck/shared';

export interface PaginationProps {
  pageIndex: number;
  pageSize: number;
  /** Rows on the server; null while the first answer is still coming, so no made-up "0 items" shows. */
  totalCount: number | null;
  onPageChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  pageSizeOptions?: readonly number[];
}

export function pageCountOf(totalCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalCount / Math.max(1, pageSize)));
}

export function clampPage(page: number, pageCount: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), pageCount);
}

const NAV_BUTTON = 'inline-flex size-7 items-center justify-center rounded text-gray-600 hover:bg-gray-100 disabled:text-gray-300 disabled:hover:bg-transparent';

/** Previous/next, a page-number input kept within 1..page count, and the page-size choice. */
export function Pagination({ pageIndex, pageSize, totalCount, onPageChange, onPageSizeChange, pageSizeOptions = PAGE_SIZE_OPTIONS }: PaginationProps) {
  const known = totalCount !== null;
  const pageCount = known ? pageCountOf(totalCount, pageSize) : pageIndex + 1;
  const [pageText, setPageText] = useState(String(pageIndex + 1));

  useEffect(() => {
    setPageText(String(pageIndex + 1));
  }, [pageIndex]);

  const commitPage = () => {
    const page = clampPage(Number(pageText), pageCount);
    setPageText(String(page));
    if (page - 1 !== pageIndex) onPageChange(page - 1);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    commitPage();
  };

  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-end gap-3 px-2 py-2 text-sm text-gray-700">
      {known ? <span>{totalCount} items</span> : <span className="text-gray-500">Counting…</span>}
      <label className="flex items-center gap-1.5">
        Rows per page
        <select
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
          className="h-7 rounded-md bg-white px-1 ring-1 ring-gray-300"
        >
          {pageSizeOptions.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <button type="button" aria-label="Previous page" className={NAV_BUTTON} disabled={pageIndex <= 0} onClick={() => onPageChange(pageIndex - 1)}>
        <ChevronLeft aria-hidden="true" className="size-4" />
      </button>
      <form onSubmit={handleSubmit} className="flex items-center gap-1.5">
        <label className="flex items-center gap-1.5">
          Page
          <input
            type="number"
            min={1}
            max={pageCount}
            value={pageText}
            onChange={(event) => setPageText(event.target.value)}
            onBlur={commitPage}
            className="h-7 w-14 rounded-md px-1.5 ring-1 ring-gray-300"
          />
        </label>
        {known && <span>of {pageCount}</span>}
      </form>
      <button type="button" aria-label="Next page" className={NAV_BUTTON} disabled={!known || pageIndex >= pageCount - 1} onClick={() => onPageChange(pageIndex + 1)}>
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </nav>
  );
}
