import { formatDate, formatDuration } from '@opsdeck/shared';
import type { CheckSeriesPoint } from '../api/types';

export interface HealthOverviewChartProps {
  points: readonly CheckSeriesPoint[];
  isLoading?: boolean;
}

const WIDTH = 1000;
const HEIGHT = 160;
const BAR_GAP = 0.2;

/**
 * Passed (green) and failed (red) runs per bucket as stacked bars, with the average latency as a line scaled to the
 * slowest bucket. Drawn as plain SVG: one series of at most a few hundred points needs no chart library.
 */
export function HealthOverviewChart({ points, isLoading = false }: HealthOverviewChartProps) {
  const totals = points.map((point) => point.passed + point.failed);
  const maxTotal = Math.max(1, ...totals);
  const maxLatency = Math.max(1, ...points.map((point) => point.duration_avg ?? 0));
  const passed = points.reduce((sum, point) => sum + point.passed, 0);
  const failed = points.reduce((sum, point) => sum + point.failed, 0);
  const slot = WIDTH / Math.max(1, points.length);
  const bar = slot * (1 - BAR_GAP);
  const line = points
    .map((point, index) => (point.duration_avg === null ? null : `${index * slot + slot / 2},${HEIGHT - (point.duration_avg / maxLatency) * HEIGHT}`))
    .filter((coordinate): coordinate is string => coordinate !== null)
    .join(' ');
  const first = points[0];
  const last = points.at(-1);

  return (
    <section aria-label="Health Overview" className="flex flex-col gap-1 rounded-md border border-gray-200 p-3">
      <header className="flex items-center justify-between text-xs text-gray-600">
        <h3 className="text-sm font-semibold text-gray-800">Health Overview</h3>
        <span>
          <span className="text-green-700">{passed} passed</span> · <span className="text-red-600">{failed} failed</span> · max avg latency{' '}
          {formatDuration(maxLatency)}
        </span>
      </header>
      {isLoading ? (
        <div className="h-40 animate-pulse rounded bg-gray-100" />
      ) : points.length === 0 ? (
        <p className="flex h-40 items-center justify-center text-sm text-gray-500">No data available</p>
      ) : (
        <>
          <svg
            role="img"
            aria-label={`Health Overview: ${passed} passed, ${failed} failed`}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="h-40 w-full"
          >
            {points.map((point, index) => {
              const passedHeight = (point.passed / maxTotal) * HEIGHT;
              const failedHeight = (point.failed / maxTotal) * HEIGHT;
              const x = index * slot + (slot - bar) / 2;
              return (
                <g key={point.time}>
                  <title>{`${formatDate(point.time)}: ${point.passed} passed, ${point.failed} failed${point.duration_avg === null ? '' : `, avg ${formatDuration(point.duration_avg)}`}`}</title>
                  <rect x={x} y={HEIGHT - passedHeight} width={bar} height={passedHeight} className="fill-green-400" />
                  <rect x={x} y={HEIGHT - passedHeight - failedHeight} width={bar} height={failedHeight} className="fill-red-500" />
                </g>
              );
            })}
            {line !== '' && <polyline points={line} fill="none" strokeWidth={2} vectorEffect="non-scaling-stroke" className="stroke-blue-600" />}
          </svg>
          <div className="flex justify-between text-xs text-gray-500">
            <span>{first ? formatDate(first.time) : ''}</span>
            <span>{last ? formatDate(last.time) : ''}</span>
          </div>
        </>
      )}
    </section>
  );
}
