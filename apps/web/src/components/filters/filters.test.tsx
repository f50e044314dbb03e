import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TristateValue } from '@opsdeck/shared';
import { FilterBar } from './filter-bar';
import { SearchInput } from './search-input';
import { TristateFilterDropdown } from './tristate-filter-dropdown';
import { TristateToggle } from './tristate-toggle';

function ToggleHarness({ initial = 0 as TristateValue }) {
  const [value, setValue] = useState<TristateValue>(initial);
  return (
    <>
      <TristateToggle label="nginx" value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('TristateToggle', () => {
  it('includes, excludes and resets when the active state is clicked again', async () => {
    const user = userEvent.setup();
    render(<ToggleHarness />);
    const include = screen.getByRole('button', { name: 'Include nginx' });
    const exclude = screen.getByRole('button', { name: 'Exclude nginx' });
    await user.click(include);
    expect(screen.getByRole('status')).toHaveTextContent('1');
    expect(include).toHaveAttribute('aria-pressed', 'true');
    await user.click(exclude);
    expect(screen.getByRole('status')).toHaveTextContent('-1');
    expect(exclude).toHaveAttribute('aria-pressed', 'true');
    await user.click(exclude);
    expect(screen.getByRole('status')).toHaveTextContent('0');
    expect(exclude).toHaveAttribute('aria-pressed', 'false');
  });
});

function FilterHarness({ initial = '', onChange }: { initial?: string; onChange?: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <TristateFilterDropdown
      label="Type"
      options={['pod', 'node', 'service', 'job', 'a:b,c'].map((option) => ({ value: option }))}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

describe('TristateFilterDropdown', () => {
  it('encodes choices with the shared filter codec, escaping special characters', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<FilterHarness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Type/ }));
    const panel = await screen.findByRole('dialog', { name: 'Type filter' });
    await user.click(within(panel).getByRole('button', { name: 'Include pod' }));
    expect(onChange).toHaveBeenLastCalledWith('pod:1');
    await user.click(within(panel).getByRole('button', { name: 'Exclude a:b,c' }));
    expect(onChange).toHaveBeenLastCalledWith('pod:1,a\\:b\\,c:-1');
    await user.click(within(panel).getByRole('button', { name: 'Include pod' }));
    expect(onChange).toHaveBeenLastCalledWith('a\\:b\\,c:-1');
  });

  it('shows a chip per selection for fewer than four selections', () => {
    render(<FilterHarness initial="pod:1,node:-1,job:1" />);
    const chips = screen.getByTestId('filter-chips');
    expect(chips).toHaveTextContent('pod');
    expect(chips).toHaveTextContent('node');
    expect(chips).toHaveTextContent('job');
    expect(screen.queryByTestId('filter-counts')).not.toBeInTheDocument();
  });

  it('shows counts instead of chips from four selections on', () => {
    render(<FilterHarness initial="pod:1,node:-1,job:1,service:1" />);
    expect(screen.queryByTestId('filter-chips')).not.toBeInTheDocument();
    expect(screen.getByTestId('filter-counts')).toHaveTextContent('3 included, 1 excluded');
  });
});

describe('SearchInput', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the text only after typing pauses for 400 ms', () => {
    const onChange = vi.fn();
    render(<SearchInput value="" onChange={onChange} placeholder="Search for incident" />);
    const input = screen.getByRole('searchbox', { name: 'Search for incident' });
    fireEvent.change(input, { target: { value: 'db' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(input, { target: { value: 'db-01' } });
    act(() => vi.advanceTimersByTime(399));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledExactlyOnceWith('db-01');
  });

  it('follows a new value from outside', () => {
    const { rerender } = render(<SearchInput value="one" onChange={() => {}} label="Search" />);
    rerender(<SearchInput value="two" onChange={() => {}} label="Search" />);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('two');
  });
});

describe('FilterBar', () => {
  it('groups filters and keeps actions apart', () => {
    render(
      <FilterBar actions={<button type="button">Refresh</button>}>
        <span>filter one</span>
      </FilterBar>,
    );
    const bar = screen.getByRole('group', { name: 'Filters' });
    expect(bar).toHaveTextContent('filter one');
    expect(within(bar).getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });
});
