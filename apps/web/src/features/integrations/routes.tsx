import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { settingsResourceRoutes } from '@/lib/settings-resources/settings-resource-routes';
import { CONFIG_SCRAPERS_KIND, LOGGING_BACKENDS_KIND, TOPOLOGIES_KIND } from './integration-kinds';
import { INTEGRATIONS_PATH } from './integration-types';

const IntegrationsPage = lazyPage(() => import('./components/integrations-page').then((module) => module.IntegrationsPage));
const IntegrationDetailPage = lazyPage(() => import('./components/integration-detail-page').then((module) => module.IntegrationDetailPage));

/** Spec 001 §2.7 and §6: the integrations list needs read, an integration's page write on integrations. */
const integrationPages: RouteObject[] = [
  {
    path: INTEGRATIONS_PATH.slice(1),
    element: (
      <Guard resource="integrations" action="read" fallback="unauthorized">
        <IntegrationsPage />
      </Guard>
    ),
  },
  {
    path: `${INTEGRATIONS_PATH.slice(1)}/:type/:id`,
    element: (
      <Guard resource="integrations" action="write" fallback="unauthorized">
        <IntegrationDetailPage />
      </Guard>
    ),
  },
];

/** The Integrations pages and the settings tables they gather, each also on its own generic pages. */
export const integrationsRoutes: RouteObject[] = [
  ...[CONFIG_SCRAPERS_KIND, TOPOLOGIES_KIND, LOGGING_BACKENDS_KIND].flatMap((kind) => settingsResourceRoutes(kind)),
  ...integrationPages,
];
