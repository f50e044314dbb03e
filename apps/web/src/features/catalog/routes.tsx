import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';

const CatalogPage = lazyPage(() => import('./components/catalog-page').then((module) => module.CatalogPage));
const CatalogChangesPage = lazyPage(() => import('./changes/components/catalog-changes-page').then((module) => module.CatalogChangesPage));
const CatalogInsightsPage = lazyPage(() => import('./insights/components/catalog-insights-page').then((module) => module.CatalogInsightsPage));
const ScrapersPage = lazyPage(() => import('./scrapers/components/scrapers-page').then((module) => module.ScrapersPage));
const ScraperDetailPage = lazyPage(() => import('./scrapers/components/scraper-detail-page').then((module) => module.ScraperDetailPage));
const ConfigDetailPage = lazyPage(() => import('./detail/components/config-detail-page').then((module) => module.ConfigDetailPage));

/** The config page's tabs as child routes of /catalog/{id}; the empty path is the Config tab. */
const CONFIG_TABS = [
  { path: '', tab: 'config' },
  { path: 'changes', tab: 'changes' },
  { path: 'insights', tab: 'insights' },
  { path: 'relationships', tab: 'relationships' },
  { path: 'playbooks', tab: 'playbooks' },
  { path: 'checks', tab: 'checks' },
] as const;

/** Every catalog page is off with the config area and needs read access to the database resource. */
function catalogArea(page: ReactNode) {
  return (
    <FeatureArea feature="config" resource="database">
      {page}
    </FeatureArea>
  );
}

/** The scraper pages are off with the config area, like the rest of the catalog, and need read on config_scrapers. */
function scrapersArea(page: ReactNode) {
  return (
    <FeatureArea feature="config" resource="config_scrapers">
      {page}
    </FeatureArea>
  );
}

/** Spec 002 §2.1: /configs is the old address of /catalog; its query string comes along. */
function ConfigsRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/catalog${search}`} replace />;
}

/**
 * The catalog's pages; the area is off when `config.disable` is true. Further catalog pages (such as /catalog/changes)
 * join this list.
 */
export const catalogRoutes: RouteObject[] = [
  { path: 'catalog', element: catalogArea(<CatalogPage />) },
  { path: 'catalog/changes', element: catalogArea(<CatalogChangesPage />) },
  { path: 'catalog/insights', element: catalogArea(<CatalogInsightsPage />) },
  { path: 'catalog/scrapers', element: scrapersArea(<ScrapersPage />) },
  { path: 'catalog/scrapers/:id', element: scrapersArea(<ScraperDetailPage />) },
  // After the named catalog pages: /catalog/changes, /catalog/insights and /catalog/scrapers are pages, not items.
  {
    path: 'catalog/:id',
    element: catalogArea(<Outlet />),
    children: CONFIG_TABS.map(({ path, tab }) => (path === '' ? { index: true, element: <ConfigDetailPage tab={tab} /> } : { path, element: <ConfigDetailPage tab={tab} /> })),
  },
  { path: 'configs', element: <ConfigsRedirect /> },
];
