import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { ConnectionsPage } from './components/connections-page';

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
