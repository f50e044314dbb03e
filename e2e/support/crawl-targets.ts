import type { APIRequestContext } from '@playwright/test';
import type { NavigationRoute } from './navigation-routes';

/** How a crawled address shows its main content. */
export type CrawlOpening =
  /** A routed page: its heading in `main`. */
  | { kind: 'page' }
  /** A dialog the address itself opens, such as the check modal of /health?checkId=…. */
  | { kind: 'modal' }
  /** A list page whose entity opens in a dialog on a click on its row (for roles that may edit it). */
  | { kind: 'row'; rowText: string };

export interface CrawlTarget {
  /** Names the screenshots and every problem found on it. */
  name: string;
  path: string;
  opening: CrawlOpening;
  /** What the page calls itself before ' | Opsdeck'; a pattern for pages named after their entity. */
  title: string | RegExp;
  /** The sidebar entry this is, when it is one; a role whose sidebar lacks it gets the Unauthorized panel. */
  navigation?: NavigationRoute;
}

type Row = Record<string, unknown>;

interface DetailSource {
  /** The data API path that lists the area's entities as the signed-in role may see them. */
  api: string;
  target(row: Row, area: NavigationRoute): CrawlTarget;
}

function text(row: Row, key: string): string {
  const value = row[key];
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`a demo row has no ${key}: ${JSON.stringify(row)}`);
  return String(value);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The detail pages of each sidebar area, found in the demo data through the API. Every entry of the web app's
 * navigation must have a line here (null for an area without detail pages): a new area fails the crawl until it says
 * how its entities are opened.
 */
const DETAIL_SOURCES: Readonly<Record<string, DetailSource | null>> = {
  '/health': {
    api: '/api/db/checks?select=id,name&deleted_at=is.null&order=name',
    target: (row, area) => ({ name: `check ${text(row, 'name')}`, path: `${area.path}?checkId=${text(row, 'id')}`, opening: { kind: 'modal' }, title: area.label }),
  },
  '/incidents': {
    api: '/api/db/incidents?select=id,incident_id,title&order=created_at',
    target: (row, area) => ({
      name: `incident ${text(row, 'incident_id')}`,
      path: `${area.path}/${text(row, 'id')}`,
      opening: { kind: 'page' },
      title: new RegExp(escapeRegExp(text(row, 'title'))),
    }),
  },
  '/settings/canaries': {
    api: '/api/db/canaries?select=id,name&deleted_at=is.null&order=name',
    target: (row, area) => ({ name: `canary ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  },
  '/settings/connections': {
    api: '/api/db/connections?select=name&deleted_at=is.null&order=name',
    target: (row, area) => ({ name: `connection ${text(row, 'name')}`, path: area.path, opening: { kind: 'row', rowText: text(row, 'name') }, title: area.label }),
  },
  '/settings/feature-flags': {
    api: '/api/db/properties?select=name&order=name',
    target: (row, area) => ({ name: `feature flag ${text(row, 'name')}`, path: area.path, opening: { kind: 'row', rowText: text(row, 'name') }, title: area.label }),
  },
};

export function navigationTarget(route: NavigationRoute): CrawlTarget {
  return { name: route.label, path: route.path, opening: { kind: 'page' }, title: route.label, navigation: route };
}

export interface DiscoveredTargets {
  targets: CrawlTarget[];
  /** Areas missing from DETAIL_SOURCES and API answers of 500 or more: each is a failure of the crawl. */
  problems: string[];
}

/** Every demo entity of the given areas that `request`'s user may read, as addresses to crawl. */
export async function discoverDetailTargets(request: APIRequestContext, areas: readonly NavigationRoute[]): Promise<DiscoveredTargets> {
  const targets: CrawlTarget[] = [];
  const problems: string[] = [];
  for (const area of areas) {
    if (!(area.path in DETAIL_SOURCES)) {
      problems.push(`${area.path}: a navigation entry the crawl does not know; say how its demo entities open in e2e/support/crawl-targets.ts`);
      continue;
    }
    const source = DETAIL_SOURCES[area.path];
    if (!source) continue;
    const response = await request.get(source.api);
    if (response.status() >= 500) problems.push(`${area.path}: ${response.status()} from GET ${source.api}`);
    // A role that may not read the area gets 401/403 here, and its Unauthorized panel is crawled as the area's page.
    if (!response.ok()) continue;
    const rows = (await response.json()) as Row[];
    targets.push(...rows.map((row) => source.target(row, area)));
  }
  return { targets, problems };
}
