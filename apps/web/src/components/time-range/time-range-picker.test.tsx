import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { relativeTimeRange, type TimeRange } from '@opsdeck/shared';
import { RECENT_TIME_RANGES_STORAGE_KEY, addRecentTimeRange } from './recent-time-ranges';
import { TimeRangePicker, type RelativeRangeOption } from './time-range-picker';

interface HarnessProps {
  onChange: (range: TimeRange) => void;
  initial?: TimeRange;
  relativeRanges?: readonly RelativeRangeOption[];
}

function Harness({ onChange, initial = relativeTimeRange('1h'), relativeRanges }: HarnessProps) {
  const [value, setValue] = useState<TimeRange>(initial);
  const handleChange = (range: TimeRange) => {
    setValue(range);
    onChange(range);
  };
  return relativeRanges ? (
    <TimeRangePicker value={value} onChange={handleChange} relativeRanges={relativeRanges} />
  ) : (
    <TimeRangePicker value={value} onChange={handleChange} />
  );
}

const option = (length: string, label: string): RelativeRangeOption => ({ range: { type: 'relative', range: `now-${length}` }, label });
const OWN_RANGES = [option('5m', 'Last 5 minutes'), option('30m', 'Last 30 minutes'), option('24h', 'Last 24 hours'), option('6M', 'Last 6 months')];

describe('TimeRangePicker', () => {
  it('offers the twenty relative ranges and picks one', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Time range: Last 1 hour' }));
    const relative = await screen.findByRole('region', { name: 'Relative time ranges' });
    expect(within(relative).getAllByRole('button')).toHaveLength(20);
    await user.click(within(relative).getByRole('button', { name: 'Last 2 days' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', range: 'now-2d' });
    expect(screen.getByRole('button', { name: 'Time range: Last 2 days' })).toBeInTheDocument();
  });

  it('offers only the relative ranges it is given, in order, and picks 30m as now-30m under its own label', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} initial={{ type: 'relative', range: 'now-24h' }} relativeRanges={OWN_RANGES} />);
    await user.click(screen.getByRole('button', { name: 'Time range: Last 24 hours' }));
    const relative = await screen.findByRole('region', { name: 'Relative time ranges' });
    expect(within(relative).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Last 5 minutes',
      'Last 30 minutes',
      'Last 24 hours',
      'Last 6 months',
    ]);
    expect(within(relative).getByRole('button', { name: 'Last 24 hours' })).toHaveAttribute('aria-current', 'true');
    await user.click(within(relative).getByRole('button', { name: 'Last 30 minutes' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', range: 'now-30m' });
    expect(screen.getByRole('button', { name: 'Time range: Last 30 minutes' })).toBeInTheDocument();
  });

  it('still offers quick and absolute ranges beside its own relative ranges', async () => {
    const user = userEvent.setup();
    render(<Harness onChange={vi.fn()} relativeRanges={OWN_RANGES} />);
    await user.click(screen.getByRole('button', { name: 'Time range: Last 1 hour' }));
    expect(await screen.findByRole('region', { name: 'Quick ranges' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Absolute time range' })).toBeInTheDocument();
  });

  it('offers mapped quick ranges', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    await user.click(await screen.findByRole('button', { name: 'Yesterday' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' });
  });

  it('keeps Submit disabled until both From and To are set, then remembers the absolute range', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    const absolute = await screen.findByRole('region', { name: 'Absolute time range' });
    const submit = within(absolute).getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    fireEvent.change(within(absolute).getByLabelText('From'), { target: { value: '2024-01-01T10:00' } });
    expect(submit).toBeDisabled();
    fireEvent.change(within(absolute).getByLabelText('To'), { target: { value: '2024-01-02T10:00' } });
    expect(submit).toBeEnabled();
    await user.click(submit);
    const expected = { type: 'absolute', from: new Date('2024-01-01T10:00').toISOString(), to: new Date('2024-01-02T10:00').toISOString() };
    expect(onChange).toHaveBeenCalledWith(expected);
    expect(JSON.parse(localStorage.getItem(RECENT_TIME_RANGES_STORAGE_KEY) ?? '[]')).toEqual([expected]);
  });

  it('lists remembered absolute ranges to pick again', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const remembered = { type: 'absolute' as const, from: new Date(2024, 0, 1, 10).toISOString(), to: new Date(2024, 0, 2, 10).toISOString() };
    localStorage.setItem(RECENT_TIME_RANGES_STORAGE_KEY, JSON.stringify([remembered]));
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    const recent = await screen.findByRole('group', { name: 'Recent time ranges' });
    await user.click(within(recent).getByRole('button', { name: '2024-01-01 10:00 – 2024-01-02 10:00' }));
    expect(onChange).toHaveBeenCalledWith(remembered);
  });
});

describe('addRecentTimeRange', () => {
  it('keeps five ranges, newest first, without duplicates', () => {
    const ranges = Array.from({ length: 6 }, (_, day) => ({ type: 'absolute' as const, from: `2024-01-0${day + 1}`, to: `2024-02-0${day + 1}` }));
    let list = ranges.reduce((current, range) => addRecentTimeRange(current, range), [] as typeof ranges);
    expect(list).toHaveLength(5);
    expect(list[0]).toEqual(ranges[5]);
    const again = ranges[3];
    if (!again) throw new Error('fixture missing');
    list = addRecentTimeRange(list, again);
    expect(list[0]).toEqual(ranges[3]);
    expect(list).toHaveLength(5);
  });
});
