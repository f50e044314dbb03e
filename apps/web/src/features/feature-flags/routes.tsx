import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';

const FeatureFlagsPage = lazyPage(() => import('./components/feature-flags-page').then((module) => module.FeatureFlagsPage));

export const featureFlagsRoutes: RouteObject[] = [
  {
    path: 'settings/feature-flags',
    element: (
      <Guard resource="feature_flags" action="read" fallback="unauthorized">
        <FeatureFlagsPage />
      </Guard>
    ),
  },
];
