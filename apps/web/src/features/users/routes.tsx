import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { SelfHostedOnly } from './components/self-hosted-only';

const UsersPage = lazyPage(() => import('./components/users-page').then((module) => module.UsersPage));

export const USERS_PATH = '/settings/users';

export const usersRoutes: RouteObject[] = [
  {
    path: USERS_PATH.slice(1),
    element: (
      <SelfHostedOnly>
        <Guard resource="identities" action="read" fallback="unauthorized">
          <UsersPage />
        </Guard>
      </SelfHostedOnly>
    ),
  },
];
