import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { HealthPage } from './components/health-page';

/** The area is off when `health.disable` is true: the page says so instead of rendering. */
function HealthArea({ children }: { children: ReactNode }) {
  const { isEnabled } = useFeatureFlags();
  if (!isEnabled('health')) {
    return (
      <p role="alert" className="mt-16 text-center text-sm text-gray-600">
        The health area is switched off.
      </p>
    );
  }
  return (
    <Guard resource="canaries" action="read" fallback="unauthorized">
      {children}
    </Guard>
  );
}

export const healthRoutes: RouteObject[] = [
  {
    path: 'health',
    element: (
      <HealthArea>
        <HealthPage />
      </HealthArea>
    ),
  },
];
