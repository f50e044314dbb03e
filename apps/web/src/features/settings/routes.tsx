import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { CANARIES_KIND, CONFIG_SCRAPERS_KIND, resourceListPath, TOPOLOGIES_KIND, type SettingsResourceKind } from './resource-kinds';

const ResourceDetailPage = lazyPage(() => import('./components/resource-detail-page').then((module) => module.ResourceDetailPage));
const ResourceListPage = lazyPage(() => import('./components/resource-list-page').then((module) => module.ResourceListPage));

/** The settings tables served by the generic pages; a later table adds its kind here. */
const SETTINGS_KINDS: readonly SettingsResourceKind[] = [CANARIES_KIND, CONFIG_SCRAPERS_KIND, TOPOLOGIES_KIND];

export const settingsResourcesRoutes: RouteObject[] = SETTINGS_KINDS.flatMap((kind) => {
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
