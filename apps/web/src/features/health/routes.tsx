import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { HealthPage } from './components/health-page';

/** The area is off when `health.disable` is true: the page says so instead of rendering. */
export const healthRoutes: RouteObject[] = [
  {
    path: 'health',
    element: (
      <FeatureArea feature="health" resource="canaries">
        <HealthPage />
      </FeatureArea>
    ),
  },
];
