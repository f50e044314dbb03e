import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';

const ConnectionsPage = lazyPage(() => import('./components/connections-page').then((module) => module.ConnectionsPage));

export const connectionsRoutes: RouteObject[] = [
  {
    path: 'settings/connections',
    element: (
      <Guard resource="connections" action="read" fallback="unauthorized">
        <ConnectionsPage />
      </Guard>
    ),
  },
];
