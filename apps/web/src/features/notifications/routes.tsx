import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';

const NotificationsPage = lazyPage(() => import('./components/notifications-page').then((module) => module.NotificationsPage));
const DemoInboxPage = lazyPage(() => import('./components/demo-inbox-page').then((module) => module.DemoInboxPage));

/** The shell's FeatureGate gates the page through its Settings entry (settings.notifications). */
export const notificationsRoutes: RouteObject[] = [
  {
    path: 'settings/notifications',
    element: (
      <Guard resource="notifications" action="read" fallback="unauthorized">
        <NotificationsPage />
      </Guard>
    ),
  },
  {
    path: 'settings/notifications/inbox',
    element: (
      <Guard resource="notifications" action="read" fallback="unauthorized">
        <DemoInboxPage />
      </Guard>
    ),
  },
];
