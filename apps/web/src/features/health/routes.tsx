import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';
import { settingsResourceRoutes } from '@/lib/settings-resources/settings-resource-routes';
import { CANARIES_KIND } from './check-editor/canaries-kind';
import { HealthPage } from './components/health-page';

const CanaryListPage = lazyPage(() => import('./check-editor/components/canary-pages').then((module) => module.CanaryListPage));
const CanaryDetailPage = lazyPage(() => import('./check-editor/components/canary-pages').then((module) => module.CanaryDetailPage));

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

/** The health-check editor under /settings/canaries, outside the dashboard's agent editor. */
export const healthSettingsRoutes: RouteObject[] = settingsResourceRoutes(CANARIES_KIND, { list: <CanaryListPage />, detail: <CanaryDetailPage /> });
