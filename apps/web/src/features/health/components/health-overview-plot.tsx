import { useMemo } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import { formatDate, formatDuration } from '@opsdeck/shared';
import type { CheckSeriesPoint } from '../api/types';

interface ChartPoint extends CheckSeriesPoint {
  ms: number;
}

const PLOT_HEIGHT = 176;
/** Before the first measure, and where nothing measures (tests): a size the chart can lay out in. */
const INITIAL_SIZE = { width: 800, height: PLOT_HEIGHT };
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const DAY_MS = 86_400_000;
// Theme variables (app/styles.css), so the plot switches with light and dark like the rest of the page.
const PASSED_COLOR = 'var(--od-chart-passed)';
const FAILED_COLOR = 'var(--od-chart-failed)';
const LATENCY_COLOR = 'var(--od-chart-latency)';
const GRID_COLOR = 'var(--od-chart-grid)';
const AXIS_COLOR = 'var(--od-chart-axis)';
const TICK = { fontSize: 11, fill: AXIS_COLOR };
const CURSOR = { fill: 'var(--od-chart-cursor)' };

function bucketMs(bucket: string): number {
  const match = /^(\d+)([mhd])$/.exec(bucket);
  return match === null ? 60_000 : Number(match[1]) * (UNIT_MS[match[2] ?? 'm'] ?? 60_000);
}

/** What the tooltip says of one bucket: its start, its runs and their latency. */
function HealthOverviewTooltipContent({ point }: { point: CheckSeriesPoint }) {
  return (
    <div role="status" aria-label="Bucket details" className="rounded-md border border-gray-200 bg-white px-2.5 py-1.5 text-xs text-gray-800 shadow-md">
      <p className="font-medium">{formatDate(point.time)}</p>
      <p className="text-green-700">{point.passed} passed</p>
      <p className="text-red-600">{point.failed} failed</p>
      {point.duration_avg !== null && <p className="text-blue-700">avg {formatDuration(point.duration_avg)}</p>}
      {point.duration_max !== null && <p className="text-gray-600">max {formatDuration(point.duration_max)}</p>}
    </div>
  );
}

export interface HealthOverviewPlotProps {
  points: readonly CheckSeriesPoint[];
  /** The width of a bucket as the server names it: '5m', '1h', '1d'. */
  bucket: string;
}

/**
 * Passed (green) and failed (red) runs per bucket as stacked bars against a run count axis, the average latency as a
 * line against a latency axis, on a time axis that keeps the gaps where the check did not run.
 */
export function HealthOverviewPlot({ points, bucket }: HealthOverviewPlotProps) {
  const data = useMemo<ChartPoint[]>(() => points.map((point) => ({ ...point, ms: Date.parse(point.time) })), [points]);
  const first = data[0]?.ms ?? 0;
  const last = data.at(-1)?.ms ?? 0;
  // A bar is as wide as the closest two buckets are apart: half of that on either end keeps the outer bars inside the plot.
  const gaps = data.slice(1).map((point, index) => point.ms - (data[index]?.ms ?? point.ms));
  const gap = gaps.length === 0 ? bucketMs(bucket) : Math.min(...gaps);
  const tickFormat = last - first <= DAY_MS ? 'time' : 'day';

  const renderTooltip = ({ active, activeIndex }: Pick<TooltipContentProps, 'active' | 'activeIndex'>) => {
    const point = active && activeIndex !== undefined && activeIndex !== null ? data[Number(activeIndex)] : undefined;
    return point === undefined ? null : <HealthOverviewTooltipContent point={point} />;
  };

  return (
    <ResponsiveContainer width="100%" height={PLOT_HEIGHT} initialDimension={INITIAL_SIZE}>
      <ComposedChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: 0 }} accessibilityLayer>
        <CartesianGrid vertical={false} stroke={GRID_COLOR} />
        <XAxis
          dataKey="ms"
          type="number"
          scale="time"
          domain={[first - gap / 2, last + gap / 2]}
          tickFormatter={(ms: number) => formatDate(new Date(ms), tickFormat)}
          tick={TICK}
          stroke={AXIS_COLOR}
          minTickGap={24}
        />
        <YAxis yAxisId="runs" allowDecimals={false} width={36} tick={TICK} stroke={AXIS_COLOR} />
        <YAxis yAxisId="latency" orientation="right" width={48} tick={TICK} stroke={AXIS_COLOR} tickFormatter={(ms: number) => formatDuration(ms)} />
        <Legend verticalAlign="top" align="right" height={20} iconSize={8} wrapperStyle={{ fontSize: 11 }} />
        <Tooltip content={renderTooltip} cursor={CURSOR} isAnimationActive={false} />
        <Bar yAxisId="runs" dataKey="passed" name="Passed" stackId="runs" fill={PASSED_COLOR} isAnimationActive={false} />
        <Bar yAxisId="runs" dataKey="failed" name="Failed" stackId="runs" fill={FAILED_COLOR} isAnimationActive={false} />
        <Line yAxisId="latency" dataKey="duration_avg" name="Avg latency" stroke={LATENCY_COLOR} strokeWidth={1.5} dot={false} connectNulls isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
