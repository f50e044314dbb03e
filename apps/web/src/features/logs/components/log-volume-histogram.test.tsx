import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { logVolume } from '../utils/log-volume';
import { LogVolumeHistogram, stepText } from './log-volume-histogram';

const MINUTE = 60_000;
const FROM = Date.UTC(2024, 0, 1, 12, 0);
const TO = FROM + 60 * MINUTE;
const hhmm = (time: number) => dayjs(time).format('HH:mm');

function line(minutesAfter: number, level?: string): { timestamp: string; labels: Record<string, string> } {
  return { timestamp: new Date(FROM + minutesAfter * MINUTE).toISOString(), labels: level === undefined ? {} : { level } };
}

describe('LogVolumeHistogram', () => {
  it('draws a bar per minute of the hour, each as tall as its share of the busiest and stacked by level', () => {
    const volume = logVolume([line(0.1, 'error'), line(0.2, 'info'), line(0.3, 'info'), line(0.4, 'info'), line(30.5, 'warn'), line(30.6, 'warn')], FROM, TO);
    render(<LogVolumeHistogram volume={volume} partial={false} />);
    const bars = screen.getAllByTestId('volume-bar');
    expect(bars).toHaveLength(60);
    expect(bars.map((bar) => Number(bar.dataset.count)).reduce((sum, count) => sum + count, 0)).toBe(6);
    const [first] = bars;
    const segments = [...(first?.children ?? [])] as HTMLElement[];
    expect(segments.map((segment) => segment.className)).toEqual([expect.stringContaining('bg-red-500'), expect.stringContaining('bg-green-500')]);
    expect(segments.map((segment) => segment.style.height)).toEqual(['25%', '75%']);
    expect(bars[30]?.firstElementChild).toHaveClass('bg-amber-500');
    expect(bars[30]?.firstElementChild).toHaveStyle({ height: '50%' });
  });

  it("gives each bar's time and count by level in its tooltip", () => {
    const volume = logVolume([line(0.1, 'error'), line(0.2, 'info'), line(5.5)], FROM, TO);
    render(<LogVolumeHistogram volume={volume} partial={false} />);
    const bars = screen.getAllByTestId('volume-bar');
    expect(bars[0]).toHaveAttribute('title', `${hhmm(FROM)}–${hhmm(FROM + MINUTE)}: 2 lines (1 error, 1 info)`);
    expect(bars[5]).toHaveAttribute('title', `${hhmm(FROM + 5 * MINUTE)}–${hhmm(FROM + 6 * MINUTE)}: 1 line`);
    expect(bars[6]).toHaveAttribute('title', `${hhmm(FROM + 6 * MINUTE)}–${hhmm(FROM + 7 * MINUTE)}: 0 lines`);
  });

  it('sums the volume up in words for screen readers: the range, the bar width, the busiest bar and the lines by level', () => {
    const volume = logVolume([line(0.1, 'error'), line(10.2, 'info'), line(10.3, 'info'), { timestamp: null, labels: {} }], FROM, TO);
    render(<LogVolumeHistogram volume={volume} partial={false} />);
    expect(screen.getByRole('figure', { name: 'Log volume' })).toBeInTheDocument();
    expect(screen.getByRole('img')).toHaveAccessibleName(
      `Log volume: 3 lines from ${hhmm(FROM)} to ${hhmm(TO)}, 1 minute per bar; most in ${hhmm(FROM + 10 * MINUTE)}–${hhmm(FROM + 11 * MINUTE)} (2 lines); 1 error, 2 info; 1 line without a time not shown.`,
    );
    const legend = within(screen.getByRole('figure')).getByText(/^Error/);
    expect(legend).toHaveTextContent('Error 1');
  });

  it('says when the bars start at the oldest loaded line rather than at the start of the range', () => {
    render(<LogVolumeHistogram volume={logVolume([line(40, 'info')], FROM + 40 * MINUTE, TO)} partial />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toContain(', from the oldest line loaded;');
  });

  it('names bar widths in words', () => {
    expect(stepText(1000)).toBe('1 second');
    expect(stepText(30_000)).toBe('30 seconds');
    expect(stepText(5 * MINUTE)).toBe('5 minutes');
    expect(stepText(3 * 60 * MINUTE)).toBe('3 hours');
    expect(stepText(24 * 60 * MINUTE)).toBe('1 day');
  });
});
