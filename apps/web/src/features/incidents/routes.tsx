import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const IncidentDetailPage = lazyPage(() => import('./components/incident-detail-page').then((module) => module.IncidentDetailPage));
const IncidentListPage = lazyPage(() => import('./components/incident-list-page').then((module) => module.IncidentListPage));

/** The area is off when `incidents.disable` is true: its pages say so instead of rendering. */
export const incidentsRoutes: RouteObject[] = [
  {
    path: 'incidents',
    element: (
      <FeatureArea feature="incidents" resource="incident">
        <IncidentListPage />
      </FeatureArea>
    ),
  },
  {
    path: 'incidents/:id',
    element: (
      <FeatureArea feature="incidents" resource="incident">
        <IncidentDetailPage />
      </FeatureArea>
    ),
  },
];
