import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { lazyPage } from '@/lib/lazy-page';

const IncidentDetailPage = lazyPage(() => import('./components/incident-detail-page').then((module) => module.IncidentDetailPage));
const IncidentListPage = lazyPage(() => import('./components/incident-list-page').then((module) => module.IncidentListPage));

/** The area is off when `incidents.disable` is true: its pages say so instead of rendering. */
function IncidentsArea({ children }: { children: ReactNode }) {
  const { isEnabled } = useFeatureFlags();
  if (!isEnabled('incidents')) {
    return (
      <p role="alert" className="mt-16 text-center text-sm text-gray-600">
        The incidents area is switched off.
      </p>
    );
  }
  return (
    <Guard resource="incident" action="read" fallback="unauthorized">
      {children}
    </Guard>
  );
}

export const incidentsRoutes: RouteObject[] = [
  {
    path: 'incidents',
    element: (
      <IncidentsArea>
        <IncidentListPage />
      </IncidentsArea>
    ),
  },
  {
    path: 'incidents/:id',
    element: (
      <IncidentsArea>
        <IncidentDetailPage />
      </IncidentsArea>
    ),
  },
];
