import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const LogsPage = lazyPage(() => import('./components/logs-page').then((module) => module.LogsPage));

/** The logs page is off with the logs area and needs read access to the log backends it reads through. */
export const logsRoutes: RouteObject[] = [
  {
    path: 'logs',
    element: (
      <FeatureArea feature="logs" resource="logging_backends">
        <LogsPage />
      </FeatureArea>
    ),
  },
];
