import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { INTEGRATIONS_PATH } from './integrations/integration-types';
import {
  CANARIES_KIND,
  CONFIG_SCRAPERS_KIND,
  INCIDENT_RULES_KIND,
  LOGGING_BACKENDS_KIND,
  resourceListPath,
  TEAMS_KIND,
  TOPOLOGIES_KIND,
  type SettingsResourceKind,
} from './resource-kinds';

const ResourceDetailPage = lazyPage(() => import('./components/resource-detail-page').then((module) => module.ResourceDetailPage));
const ResourceListPage = lazyPage(() => import('./components/resource-list-page').then((module) => module.ResourceListPage));
const IntegrationsPage = lazyPage(() => import('./integrations/components/integrations-page').then((module) => module.IntegrationsPage));
const IntegrationDetailPage = lazyPage(() => import('./integrations/components/integration-detail-page').then((module) => module.IntegrationDetailPage));

/** The settings tables served by the generic pages; a later table adds its kind here. */
const SETTINGS_KINDS: readonly SettingsResourceKind[] = [CANARIES_KIND, CONFIG_SCRAPERS_KIND, TOPOLOGIES_KIND, LOGGING_BACKENDS_KIND, TEAMS_KIND, INCIDENT_RULES_KIND];

const resourceRoutes: RouteObject[] = SETTINGS_KINDS.flatMap((kind) => {
  const path = resourceListPath(kind).slice(1);
  return [
    {
      path,
      element: (
        <Guard resource={kind.resource} action="read" fallback="unauthorized">
          <ResourceListPage key={kind.table} kind={kind} />
        </Guard>
      ),
    },
    {
      path: `${path}/:id`,
      element: (
        <Guard resource={kind.resource} action="read" fallback="unauthorized">
          <ResourceDetailPage key={kind.table} kind={kind} />
        </Guard>
      ),
    },
  ];
});

/** Spec 001 §2.7 and §6: the integrations list needs read, an integration's page write on integrations. */
const integrationRoutes: RouteObject[] = [
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

export const settingsResourcesRoutes: RouteObject[] = [...resourceRoutes, ...integrationRoutes];
