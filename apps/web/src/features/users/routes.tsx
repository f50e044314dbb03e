import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { settingsResourceRoutes } from '@/lib/settings-resources/settings-resource-routes';
import { SelfHostedOnly } from './components/self-hosted-only';
import { TEAMS_KIND } from './teams/teams-kind';

const UsersPage = lazyPage(() => import('./components/users-page').then((module) => module.UsersPage));
const TeamListPage = lazyPage(() => import('./teams/components/team-pages').then((module) => module.TeamListPage));
const TeamDetailPage = lazyPage(() => import('./teams/components/team-pages').then((module) => module.TeamDetailPage));

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
  ...settingsResourceRoutes(TEAMS_KIND, { list: <TeamListPage />, detail: <TeamDetailPage /> }),
];
