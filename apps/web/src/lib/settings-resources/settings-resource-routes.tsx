import type { ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { Guard } from '@/lib/auth/guard';
import { lazyPage } from '@/lib/lazy-page';
import { resourceListPath, type SettingsResourceKind } from './settings-resource-kind';

const ResourceDetailPage = lazyPage(() => import('./components/resource-detail-page').then((module) => module.ResourceDetailPage));
const ResourceListPage = lazyPage(() => import('./components/resource-list-page').then((module) => module.ResourceListPage));

/** A kind's own list and detail pages, for a feature that adds a form or a panel to the generic ones. */
export interface SettingsResourcePages {
  list: ReactElement;
  detail: ReactElement;
}

/**
 * /settings/{table} and /settings/{table}/{id} (spec 002 §2.2 'Generic resource list page' and 'detail/edit page'),
 * each behind the kind's read permission; the generic pages unless the feature brings its own.
 */
export function settingsResourceRoutes(kind: SettingsResourceKind, pages?: SettingsResourcePages): RouteObject[] {
  const path = resourceListPath(kind).slice(1);
  return [
    {
      path,
      element: (
        <Guard resource={kind.resource} action="read" fallback="unauthorized">
          {pages?.list ?? <ResourceListPage key={kind.table} kind={kind} />}
        </Guard>
      ),
    },
    {
      path: `${path}/:id`,
      element: (
        <Guard resource={kind.resource} action="read" fallback="unauthorized">
          {pages?.detail ?? <ResourceDetailPage key={kind.table} kind={kind} />}
        </Guard>
      ),
    },
  ];
}
