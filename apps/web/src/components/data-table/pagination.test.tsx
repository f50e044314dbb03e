import '@/components/test-support/browser-polyfills';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Pagination, clampPage, pageCountOf } from './pagination';

describe('Pagination', () => {
  it('offers the page sizes of the spec', () => {
    render(<Pagination pageIndex={0} pageSize={50} totalCount={120} onPageChange={() => {}} onPageSizeChange={() => {}} />);
    const sizes = screen.getAllByRole('option').map((option) => option.textContent);
    expect(sizes).toEqual(['5', '10', '25', '50', '100', '150', '200', '250', '300', '500', '1000']);
  });

  it('bounds the page-number input to 1 through the page count', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    render(<Pagination pageIndex={0} pageSize={10} totalCount={45} onPageChange={onPageChange} onPageSizeChange={() => {}} />);
    const input = screen.getByRole('spinbutton', { name: 'Page' });
    await user.clear(input);
    await user.type(input, '99{Enter}');
    expect(onPageChange).toHaveBeenLastCalledWith(4);
    expect(input).toHaveValue(5);
    await user.clear(input);
    await user.type(input, '0{Enter}');
    expect(input).toHaveValue(1);
  });

  it('disables Previous on the first page and Next on the last', () => {
    const { rerender } = render(<Pagination pageIndex={0} pageSize={10} totalCount={20} onPageChange={() => {}} onPageSizeChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    rerender(<Pagination pageIndex={1} pageSize={10} totalCount={20} onPageChange={() => {}} onPageSizeChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('computes page counts and clamps pages', () => {
    expect(pageCountOf(0, 10)).toBe(1);
    expect(pageCountOf(101, 10)).toBe(11);
    expect(clampPage(Number.NaN, 3)).toBe(1);
    expect(clampPage(2.7, 3)).toBe(2);
  });
});
