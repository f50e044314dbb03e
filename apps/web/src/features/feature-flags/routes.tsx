import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { FeatureFlagsPage } from './components/feature-flags-page';

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
