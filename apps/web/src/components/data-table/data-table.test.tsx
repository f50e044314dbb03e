import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { DataTable, type DataTableProps } from './data-table';

interface Item {
  id: string;
  name: string;
  size: number;
}

const columns: ColumnDef<Item>[] = [
  { id: 'name', header: 'Name', accessorKey: 'name' },
  { id: 'size', header: 'Size', accessorKey: 'size', enableSorting: false },
];

const items = (count: number): Item[] => Array.from({ length: count }, (_, index) => ({ id: `i${index}`, name: `Item ${index}`, size: index }));

function renderTable(props: Partial<DataTableProps<Item>> = {}) {
  return render(<DataTable<Item> label="Items" columns={columns} data={items(3)} getRowId={(item) => item.id} {...props} />);
}

const bodyRows = () => within(screen.getByRole('table', { name: 'Items' })).getAllByRole('row').filter((row) => row.closest('tbody') && !row.hasAttribute('aria-hidden'));

afterEach(() => vi.restoreAllMocks());

describe('DataTable', () => {
  it('renders headers and rows', () => {
    renderTable();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(3);
    expect(screen.getByRole('cell', { name: 'Item 2' })).toBeInTheDocument();
  });

  it('shows a skeleton while loading', () => {
    renderTable({ isLoading: true });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    expect(screen.queryByText('Item 0')).not.toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  it("shows 'No data available' when empty, or the given text", () => {
    const { rerender } = renderTable({ data: [] });
    expect(screen.getByText('No data available')).toBeInTheDocument();
    rerender(<DataTable<Item> label="Items" columns={columns} data={[]} emptyText="There are no incidents matching this criteria" />);
    expect(screen.getByText('There are no incidents matching this criteria')).toBeInTheDocument();
  });

  it('opens a row on click and on Enter', async () => {
    const user = userEvent.setup();
    const onRowClick = vi.fn();
    renderTable({ onRowClick });
    await user.click(screen.getByText('Item 1'));
    expect(onRowClick).toHaveBeenLastCalledWith({ id: 'i1', name: 'Item 1', size: 1 });
    bodyRows()[2]?.focus();
    await user.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenLastCalledWith({ id: 'i2', name: 'Item 2', size: 2 });
  });

  it('leaves a row that is not clickable inert to clicks and Enter, unfocusable and without the pointer, and keeps it a row', async () => {
    const user = userEvent.setup();
    const onRowClick = vi.fn();
    renderTable({ onRowClick, isRowClickable: (item) => item.id !== 'i1' });
    const [first, inert] = bodyRows();
    if (!first || !inert) throw new Error('rows missing');
    await user.click(screen.getByText('Item 1'));
    fireEvent.keyDown(inert, { key: 'Enter' });
    expect(onRowClick).not.toHaveBeenCalled();
    expect(inert).not.toHaveAttribute('tabindex');
    expect(inert).not.toHaveClass('cursor-pointer');
    expect(screen.queryByRole('button', { name: /Item 1/ })).not.toBeInTheDocument();
    expect(first).toHaveAttribute('tabindex', '0');
    expect(first).toHaveClass('cursor-pointer');
    await user.click(screen.getByText('Item 0'));
    expect(onRowClick).toHaveBeenCalledWith({ id: 'i0', name: 'Item 0', size: 0 });
  });

  it('is one Tab stop whose rows the arrows, Home and End move between, and opens a row with Enter or Space', async () => {
    const user = userEvent.setup();
    const onRowClick = vi.fn();
    render(
      <>
        <button type="button">before</button>
        <DataTable<Item> label="Items" columns={columns} data={items(4)} getRowId={(item) => item.id} onRowClick={onRowClick} />
        <button type="button">after</button>
      </>,
    );
    const rows = bodyRows();
    expect(rows.map((row) => row.getAttribute('tabindex'))).toEqual(['0', '-1', '-1', '-1']);
    screen.getByRole('button', { name: 'before' }).focus();
    await user.tab();
    expect(rows[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(rows[2]).toHaveFocus();
    await user.keyboard(' ');
    expect(onRowClick).toHaveBeenLastCalledWith({ id: 'i2', name: 'Item 2', size: 2 });
    await user.keyboard('{End}');
    expect(rows[3]).toHaveFocus();
    await user.keyboard('{Home}{ArrowUp}');
    expect(rows[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    // The row last focused keeps the table's one stop, so Tab leaves the table and Shift+Tab comes back to it.
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(rows[1]).toHaveFocus();
  });

  it('asks the server for a new sort through sortable headers only', async () => {
    const user = userEvent.setup();
    const onSortingChange = vi.fn();
    function Sorted() {
      const [sorting, setSorting] = useState<SortingState>([]);
      return (
        <DataTable<Item>
          label="Items"
          columns={columns}
          data={items(3)}
          sorting={{
            sorting,
            onSortingChange: (next) => {
              setSorting(next);
              onSortingChange(next);
            },
          }}
        />
      );
    }
    render(<Sorted />);
    expect(within(screen.getByRole('columnheader', { name: 'Size' })).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(onSortingChange).toHaveBeenLastCalledWith([{ id: 'name', desc: false }]);
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('renders only the rows near the viewport', () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(350);
    renderTable({ data: items(1000) });
    const rendered = bodyRows();
    // A window of 768 px holds 22 rows of 35 px; ten more are overscan.
    expect(rendered.length).toBeGreaterThanOrEqual(22);
    expect(rendered.length).toBeLessThanOrEqual(33);
    expect(screen.queryByText('Item 999')).not.toBeInTheDocument();
  });

  it('doubles the page size when the last row of a virtual list is reached and the server has more', () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(350);
    const onPaginationChange = vi.fn();
    renderTable({ data: items(5), growPageSize: true, pagination: { pageIndex: 0, pageSize: 5, totalCount: 100, onPaginationChange } });
    expect(onPaginationChange).toHaveBeenCalledWith({ pageIndex: 0, pageSize: 10 });
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('does not grow once every row is loaded', () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(350);
    const onPaginationChange = vi.fn();
    renderTable({ data: items(5), growPageSize: true, pagination: { pageIndex: 0, pageSize: 5, totalCount: 5, onPaginationChange } });
    expect(onPaginationChange).not.toHaveBeenCalled();
  });

  it('pages on the server through the pager', async () => {
    const user = userEvent.setup();
    const onPaginationChange = vi.fn();
    renderTable({ pagination: { pageIndex: 1, pageSize: 10, totalCount: 45, onPaginationChange } });
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pager).toHaveTextContent('of 5');
    await user.click(within(pager).getByRole('button', { name: 'Next page' }));
    expect(onPaginationChange).toHaveBeenLastCalledWith({ pageIndex: 2, pageSize: 10 });
    await user.selectOptions(within(pager).getByRole('combobox', { name: 'Rows per page' }), '25');
    expect(onPaginationChange).toHaveBeenLastCalledWith({ pageIndex: 0, pageSize: 25 });
  });

  it('says it is counting under the skeleton instead of showing 0 items and page 1 of 1', () => {
    renderTable({ data: [], isLoading: true, pagination: { pageIndex: 0, pageSize: 10, totalCount: 0, onPaginationChange: () => {} } });
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pager).toHaveTextContent('Counting…');
    expect(pager).not.toHaveTextContent('0 items');
    expect(pager).not.toHaveTextContent('of 1');
    expect(within(pager).getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('keeps scroll position in sessionStorage under its key and restores it', () => {
    vi.useFakeTimers();
    const { unmount } = renderTable({ data: items(200), preferenceKey: 'things' });
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    Object.defineProperty(scroller, 'scrollTop', { value: 700, writable: true });
    fireEvent.scroll(scroller);
    vi.advanceTimersByTime(250);
    vi.useRealTimers();
    expect(JSON.parse(sessionStorage.getItem('opsdeck.table.things.scroll') ?? '{}')).toEqual({ top: 700 });
    unmount();
    const assigned: number[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollTop', 'set').mockImplementation((top: number) => assigned.push(top));
    renderTable({ data: items(200), preferenceKey: 'things' });
    expect(assigned).toContain(700);
  });

  it('remembers expanded rows per key', async () => {
    const user = userEvent.setup();
    const expandable: ColumnDef<Item>[] = [
      {
        id: 'expand',
        header: '',
        cell: ({ row }) => (
          <button type="button" onClick={row.getToggleExpandedHandler()}>
            Toggle {row.original.name}
          </button>
        ),
      },
      ...columns,
    ];
    const props = { label: 'Items', columns: expandable, data: items(3), getRowId: (item: Item) => item.id, preferenceKey: 'exp', renderExpandedRow: () => <p>Details</p> };
    const { unmount } = render(<DataTable<Item> {...props} />);
    await user.click(screen.getByRole('button', { name: 'Toggle Item 1' }));
    expect(screen.getByText('Details')).toBeInTheDocument();
    unmount();
    render(<DataTable<Item> {...props} />);
    expect(screen.getByText('Details')).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem('opsdeck.table.exp.expanded') ?? '{}')).toEqual({ i1: true });
  });
});

describe('DataTable on a narrow screen', () => {
  const wideColumns: ColumnDef<Item>[] = [
    { id: 'id', header: 'Id', accessorKey: 'id', size: 80 },
    { id: 'name', header: 'Name', accessorKey: 'name', size: 400 },
    { id: 'size', header: 'Size', accessorKey: 'size', size: 120 },
  ];

  /** A ResizeObserver that reports every observed element as `width` pixels wide, as a browser would after layout. */
  function observeAs(width: number) {
    class SizedResizeObserver {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element): void {
        const entry = { target, contentRect: { width, height: 600 }, borderBoxSize: [{ inlineSize: width, blockSize: 600 }] };
        this.callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve(): void {}
      disconnect(): void {}
    }
    window.ResizeObserver = SizedResizeObserver;
  }

  const originalResizeObserver = window.ResizeObserver;
  afterEach(() => {
    window.ResizeObserver = originalResizeObserver;
  });

  it('hides the columns it has no room for and keeps the others', () => {
    observeAs(360);
    renderTable({ columns: wideColumns, layout: { grow: 'name', hideBelow: { size: 600 } } });
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Size' })).not.toBeInTheDocument();
    expect(bodyRows()[0]?.querySelectorAll('td')).toHaveLength(2);
  });

  it('shows every column once it is wide enough', () => {
    observeAs(900);
    renderTable({ columns: wideColumns, layout: { grow: 'name', hideBelow: { size: 600 } } });
    expect(screen.getByRole('columnheader', { name: 'Size' })).toBeInTheDocument();
  });

  it('lets the growing column shrink, so the table needs only the room of the other columns plus the minimum', () => {
    observeAs(900);
    renderTable({ columns: wideColumns, layout: { grow: 'name' } });
    expect(screen.getByRole('table')).toHaveStyle({ minWidth: '400px' });
    expect(screen.getByRole('columnheader', { name: 'Name' }).style.width).toBe('');
    expect(screen.getByRole('columnheader', { name: 'Size' })).toHaveStyle({ width: '120px' });
  });

  it('keeps the first column in view while the table scrolls sideways', () => {
    renderTable({ columns: wideColumns });
    expect(screen.getByRole('columnheader', { name: 'Id' })).toHaveClass('sticky', 'left-0');
    expect(screen.getByRole('cell', { name: 'i0' })).toHaveClass('sticky', 'left-0');
    expect(screen.getByRole('cell', { name: 'Item 0' })).not.toHaveClass('sticky');
  });
});
