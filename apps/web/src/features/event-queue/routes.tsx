import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';

const EventQueuePage = lazyPage(() => import('./components/event-queue-page').then((module) => module.EventQueuePage));

export const eventQueueRoutes: RouteObject[] = [
  {
    path: 'settings/event-queue-status',
    element: (
      // The data API guards event_queue_summary with the database resource.
      <Guard resource="database" action="read" fallback="unauthorized">
        <EventQueuePage />
      </Guard>
    ),
  },
];
