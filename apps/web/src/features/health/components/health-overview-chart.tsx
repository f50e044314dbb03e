import { Suspense } from 'react';
import { lazyPage } from '@/lib/lazy-page';
import type { CheckSeriesPoint } from '../api/types';

export interface HealthOverviewChartProps {
  points: readonly CheckSeriesPoint[];
  /** The width of a bucket as the server names it: '5m', '1h', '1d'. */
  bucket: string;
  isLoading?: boolean;
}

/** The charting library loads with the first chart drawn, not with the dashboard. */
const HealthOverviewPlot = lazyPage(async () => (await import('./health-overview-plot')).HealthOverviewPlot);

const PLACEHOLDER = 'h-44 rounded bg-gray-100';

/**
 * The Health Overview of the check modal: the runs per bucket over the range. The header totals are the sums of the
 * bars: the same figures as the Uptime tile, which the server derives from the same buckets.
 */
export function HealthOverviewChart({ points, bucket, isLoading = false }: HealthOverviewChartProps) {
  const passed = points.reduce((sum, point) => sum + point.passed, 0);
  const failed = points.reduce((sum, point) => sum + point.failed, 0);

  return (
    <section aria-label="Health Overview" className="flex flex-col gap-1 rounded-md border border-gray-200 p-3">
      <header className="flex items-center justify-between text-xs text-gray-600">
        <h3 className="text-sm font-semibold text-gray-800">Health Overview</h3>
        <span data-testid="chart-totals">
          <span className="text-green-700">{passed} passed</span> · <span className="text-red-600">{failed} failed</span>
        </span>
      </header>
      {isLoading ? (
        <div aria-busy="true" className={`${PLACEHOLDER} animate-pulse`} />
      ) : points.length === 0 ? (
        <p className="flex h-44 items-center justify-center text-sm text-gray-500">No data available</p>
      ) : (
        <Suspense fallback={<div aria-busy="true" className={`${PLACEHOLDER} animate-pulse`} />}>
          <HealthOverviewPlot points={points} bucket={bucket} />
        </Suspense>
      )}
    </section>
  );
}
