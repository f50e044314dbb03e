import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { ResourceDetailPage } from './components/resource-detail-page';
import { ResourceListPage } from './components/resource-list-page';
import { CANARIES_KIND, resourceListPath, type SettingsResourceKind } from './resource-kinds';

/** The settings tables served by the generic pages; a later table adds its kind here. */
const SETTINGS_KINDS: readonly SettingsResourceKind[] = [CANARIES_KIND];

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
