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

/**
 * How much of an area's demo data a role crawls: `every` opens each kind of entity the demo holds, `sample` one of
 * each way a page renders. Pages render the same kinds of entity alike for every role (only actions differ), so one
 * role crawls every kind and the others a sample, which keeps the crawl inside CI's time.
 */
export type CrawlDepth = 'every' | 'sample';

interface DetailSource {
  /** The data API path that lists the area's entities as the signed-in role may see them. */
  api: string;
  targets(rows: Row[], area: NavigationRoute, depth: CrawlDepth): CrawlTarget[];
  /** Further lists of the same area (the playbooks' runs). */
  also?: DetailSource[];
  /**
   * The list has no created_at to tell the demo's rows from other specs' (components_with_logs): its `api` leaves out
   * the specs' own rows by their 'e2e-' names instead.
   */
  undated?: true;
}

/**
 * A source whose every row is one address to crawl (`every`), or its first row (`sample`): the rows of such a list open
 * the same page, and what differs between roles there is which actions it offers, not how an entity renders.
 */
function eachRow(api: string, target: (row: Row, area: NavigationRoute) => CrawlTarget): DetailSource {
  return { api, targets: (rows, area, depth) => (depth === 'every' ? rows : rows.slice(0, 1)).map((row) => target(row, area)) };
}

function text(row: Row, key: string): string {
  const value = row[key];
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`a demo row has no ${key}: ${JSON.stringify(row)}`);
  return String(value);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The config page's tabs, crawled on the richest demo item (the checkout Deployment, with changes, insights and links). */
/** Spec 002 §2.1: an item last scraped more than an hour ago is flagged stale. */
const STALE_AFTER_MS = 3_600_000;

const CONFIG_TABS = ['changes', 'insights', 'relationships', 'playbooks', 'checks'] as const;

/**
 * The catalog holds a few hundred demo items: crawling each at three widths for five roles would take longer than the
 * rest of the crawl. One item of every type (for the `every` role), every deleted-or-stale kind and every tab of one
 * item cover each way the config page renders, and the summary's drill-down, changes and insights pages cover the
 * lists.
 */
const CATALOG_SOURCE: DetailSource = {
  api: '/api/db/configs?select=id,name,type,deleted_at,last_scraped_time&order=type,name',
  targets: (rows, area, depth) => {
    const page = (name: string, path: string, title: string | RegExp): CrawlTarget => ({ name, path, opening: { kind: 'page' }, title });
    const item = (row: Row, name: string, tab?: string) =>
      page(name, `${area.path}/${text(row, 'id')}${tab === undefined ? '' : `/${tab}`}`, new RegExp(escapeRegExp(text(row, 'name'))));
    const firstOfType = new Map<string, Row>();
    for (const row of rows) if (!firstOfType.has(text(row, 'type'))) firstOfType.set(text(row, 'type'), row);
    const checkout = rows.find((row) => row['type'] === 'Kubernetes::Deployment' && row['name'] === 'checkout');
    const sampled = depth === 'every' ? [...firstOfType.values()] : checkout === undefined ? [] : [checkout];
    const targets = sampled.map((row) => item(row, `config ${text(row, 'type')} ${text(row, 'name')}`));
    const deleted = rows.find((row) => row['deleted_at'] !== null);
    if (deleted) targets.push(item(deleted, `deleted config ${text(deleted, 'name')}`));
    const stale = rows.find((row) => row['deleted_at'] === null && typeof row['last_scraped_time'] === 'string' && Date.parse(row['last_scraped_time']) < Date.now() - STALE_AFTER_MS);
    if (stale) targets.push(item(stale, `stale config ${text(stale, 'name')}`));
    if (checkout && depth === 'every') targets.push(...CONFIG_TABS.map((tab) => item(checkout, `config checkout ${tab} tab`, tab)));
    const firstType = firstOfType.keys().next().value;
    if (firstType !== undefined) targets.push(page(`catalog of ${firstType}`, `${area.path}?configType=${encodeURIComponent(firstType)}`, area.label));
    targets.push(page('catalog changes', `${area.path}/changes`, 'Config changes'), page('catalog insights', `${area.path}/insights`, 'Catalog insights'));
    return targets;
  },
};

/**
 * The detail pages of each sidebar area, found in the demo data through the API. Every entry of the web app's
 * navigation must have a line here (null for an area without detail pages): a new area fails the crawl until it says
 * how its entities are opened.
 */
const DETAIL_SOURCES: Readonly<Record<string, DetailSource | null>> = {
  '/health': eachRow(
    '/api/db/checks?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `check ${text(row, 'name')}`, path: `${area.path}?checkId=${text(row, 'id')}`, opening: { kind: 'modal' }, title: area.label }),
  ),
  '/incidents': eachRow(
    '/api/db/incidents?select=id,incident_id,title&order=created_at',
    (row, area) => ({
      name: `incident ${text(row, 'incident_id')}`,
      path: `${area.path}/${text(row, 'id')}`,
      opening: { kind: 'page' },
      title: new RegExp(escapeRegExp(text(row, 'title'))),
    }),
  ),
  '/settings/canaries': eachRow(
    '/api/db/canaries?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `canary ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  ),
  '/settings/connections': eachRow(
    '/api/db/connections?select=name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `connection ${text(row, 'name')}`, path: area.path, opening: { kind: 'row', rowText: text(row, 'name') }, title: area.label }),
  ),
  '/settings/feature-flags': eachRow(
    '/api/db/properties?select=name&order=name',
    (row, area) => ({ name: `feature flag ${text(row, 'name')}`, path: area.path, opening: { kind: 'row', rowText: text(row, 'name') }, title: area.label }),
  ),
  // The same page at /agents, and the editor each demo agent opens through ?id= (`sample`: the first one only).
  '/settings/agents': {
    api: '/api/db/agents_summary?select=id,name&order=name',
    targets: (rows, area, depth) => [
      { name: 'agents', path: '/agents', opening: { kind: 'page' }, title: 'Agents' },
      ...(depth === 'every' ? rows : rows.slice(0, 1)).map(
        (row): CrawlTarget => ({ name: `agent ${text(row, 'name')}`, path: `${area.path}?id=${text(row, 'id')}`, opening: { kind: 'modal' }, title: 'Agents' }),
      ),
    ],
  },
  '/catalog': CATALOG_SOURCE,
  // The logs of a component as the topology cards' Logs links open them: the first component each kind of log backend
  // serves (`every`) or the first component (`sample`); components of one backend kind render alike.
  '/logs': {
    api: '/api/db/components_with_logs?select=id,name,log_selectors&name=not.like.e2e-*&order=name',
    undated: true,
    targets: (rows, area, depth) => {
      const firstOfKind = new Map<string, Row>();
      for (const row of rows) {
        const selectors = Array.isArray(row['log_selectors']) ? (row['log_selectors'] as Row[]) : [];
        const kind = selectors.map((selector) => String(selector['type'] ?? '')).join(',');
        if (!firstOfKind.has(kind)) firstOfKind.set(kind, row);
      }
      const opened = depth === 'every' ? [...firstOfKind.values()] : rows.slice(0, 1);
      return opened.map((row): CrawlTarget => ({ name: `logs of ${text(row, 'name')}`, path: `${area.path}?topologyId=${text(row, 'id')}`, opening: { kind: 'page' }, title: area.label }));
    },
  },
  // Job runs open in a dialog on the list page, which the crawl opens as the area's page.
  '/settings/jobs': null,
  // The most common error opens in a dialog on the list page; the crawl opens the page itself.
  '/settings/event-queue-status': null,
  // An audit entry opens in a dialog on the list page; the crawl opens the page itself.
  '/settings/audit': null,
  // Every component with children is a page of cards; the standalone view of each topology's root renders without the
  // shell. The `sample` roles open the roots and one branch.
  '/topology': {
    api: '/api/db/components?select=id,name,parent_id,path&deleted_at=is.null&is_leaf=is.false&order=path,name',
    targets: (rows, area, depth) => {
      const roots = rows.filter((row) => row['parent_id'] === null);
      const opened = depth === 'every' ? rows : [...roots, ...rows.filter((row) => row['parent_id'] !== null).slice(0, 1)];
      const named = (row: Row) => new RegExp(`^${escapeRegExp(text(row, 'name'))}$`);
      return [
        ...opened.map((row): CrawlTarget => ({ name: `component ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: named(row) })),
        ...roots.map((row): CrawlTarget => ({ name: `standalone ${text(row, 'name')}`, path: `/view/topology/${text(row, 'id')}`, opening: { kind: 'page' }, title: named(row) })),
      ];
    },
  },
  // Each demo playbook's page (`every`) or the first (`sample`), the run list, and one run of every status (`every`) or
  // the newest run (`sample`): runs of one status render alike.
  '/playbooks': {
    api: '/api/db/playbooks?select=id,name,title&deleted_at=is.null&order=name',
    targets: (rows, area, depth) => [
      ...(depth === 'every' ? rows : rows.slice(0, 1)).map((row): CrawlTarget => ({
        name: `playbook ${text(row, 'name')}`,
        path: `${area.path}/${text(row, 'id')}`,
        opening: { kind: 'page' },
        title: new RegExp(escapeRegExp(typeof row['title'] === 'string' && row['title'] !== '' ? row['title'] : text(row, 'name'))),
      })),
      { name: 'playbook runs', path: `${area.path}/runs`, opening: { kind: 'page' }, title: 'Playbook Runs' },
    ],
    also: [
      {
        api: '/api/db/playbook_runs?select=id,status,playbooks(name,title)&order=created_at.desc',
        targets: (rows, area, depth) => {
          const firstOfStatus = new Map<string, Row>();
          for (const row of rows) if (!firstOfStatus.has(text(row, 'status'))) firstOfStatus.set(text(row, 'status'), row);
          const opened = depth === 'every' ? [...firstOfStatus.values()] : rows.slice(0, 1);
          return opened.map((row) => {
            const playbook = (row['playbooks'] ?? {}) as Row;
            const named = typeof playbook['title'] === 'string' && playbook['title'] !== '' ? playbook['title'] : text(playbook, 'name');
            return { name: `playbook run ${text(row, 'status')}`, path: `${area.path}/runs/${text(row, 'id')}`, opening: { kind: 'page' }, title: new RegExp(escapeRegExp(named)) };
          });
        },
      },
    ],
  },
  // Each notification opens its editor in a dialog. The list names it by a plain title, else by its name, else by its
  // events in words ('check.failed' → 'Check failed'), as the page's notificationHeading does. The demo inbox is a page
  // of its own under the list.
  '/settings/notifications': {
    api: '/api/db/notifications?select=id,title,name,events&deleted_at=is.null&order=created_at.desc',
    targets: (rows, area, depth) => [
      { name: 'demo inbox', path: `${area.path}/inbox`, opening: { kind: 'page' }, title: 'Demo inbox' },
      ...(depth === 'every' ? rows : rows.slice(0, 1)).map((row): CrawlTarget => {
        const title = typeof row['title'] === 'string' && row['title'].trim() !== '' && !/\{\{|\{%/.test(row['title']) ? row['title'] : null;
        const name = typeof row['name'] === 'string' && row['name'].trim() !== '' ? row['name'] : null;
        const events = Array.isArray(row['events']) ? row['events'].map((event) => String(event).split('.').join(' ').replace(/^./, (first) => first.toUpperCase())).join(', ') : '';
        const label = title ?? name ?? events;
        return { name: `notification ${label}`, path: area.path, opening: { kind: 'row', rowText: label }, title: area.label };
      }),
    ],
  },
  '/settings/topologies': eachRow(
    '/api/db/topologies?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `topology ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  ),
  '/settings/logging_backends': eachRow(
    '/api/db/logging_backends?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `log backend ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  ),
  // Invite, role and delete dialogs open from buttons, not addresses; the crawl opens the list itself.
  '/settings/users': null,
  // Each demo team's page, which opens on its Manage Team tab.
  '/settings/teams': eachRow(
    '/api/db/teams?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `team ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  ),
  '/settings/incident_rules': eachRow(
    '/api/db/incident_rules?select=id,name&deleted_at=is.null&order=name',
    (row, area) => ({ name: `incident rule ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') }),
  ),
  // Each integration's page (`every`) or the first of each type (`sample`). Spec 001 §6: the page needs write on
  // integrations, so roles without it (commander, responder) are shown the Unauthorized panel there by design.
  '/settings/integrations': {
    api: '/api/db/integrations_with_status?select=id,name,integration_type&deleted_at=is.null&order=integration_type,name',
    targets: (rows, area, depth) => {
      const firstOfType = new Map<string, Row>();
      for (const row of rows) if (!firstOfType.has(text(row, 'integration_type'))) firstOfType.set(text(row, 'integration_type'), row);
      const opened = depth === 'every' ? rows : [...firstOfType.values()];
      return opened.map((row): CrawlTarget => ({
        name: `integration ${text(row, 'integration_type')} ${text(row, 'name')}`,
        path: `${area.path}/${text(row, 'integration_type')}/${text(row, 'id')}`,
        opening: { kind: 'page' },
        title: new RegExp(`^(${escapeRegExp(text(row, 'name'))}|Unauthorized)$`),
      }));
    },
  },
  // The seed's two scrapers: demo-manifests (a file scraper that runs) and demo-estate (kinds this server only shows).
  // The same scrapers also through the generic settings pages of spec 002 §2.2.
  '/catalog/scrapers': {
    api: '/api/db/config_scrapers?select=id,name&deleted_at=is.null&name=in.(demo-manifests,demo-estate)&order=name',
    targets: (rows, area) => [
      ...rows.map((row): CrawlTarget => ({ name: `scraper ${text(row, 'name')}`, path: `${area.path}/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') })),
      { name: 'settings catalog scrapers', path: '/settings/config_scrapers', opening: { kind: 'page' }, title: 'Catalog Scrapers' },
      ...rows.map((row): CrawlTarget => ({ name: `settings scraper ${text(row, 'name')}`, path: `/settings/config_scrapers/${text(row, 'id')}`, opening: { kind: 'page' }, title: text(row, 'name') })),
    ],
  },
};

/** Pages whose title is not their sidebar label: spec 001 §2.1 calls the topology page 'Dashboard' in the sidebar. */
const PAGE_TITLES: Readonly<Record<string, string>> = { '/topology': 'Topology', '/settings/jobs': 'Job History' };

export function navigationTarget(route: NavigationRoute): CrawlTarget {
  return { name: route.label, path: route.path, opening: { kind: 'page' }, title: PAGE_TITLES[route.path] ?? route.label, navigation: route };
}

export interface DiscoveredTargets {
  targets: CrawlTarget[];
  /** Areas missing from DETAIL_SOURCES and API answers of 500 or more: each is a failure of the crawl. */
  problems: string[];
}

/**
 * When scripts/e2e.mjs started the specs. Rows made after it are other specs' own, which they may delete while the crawl
 * runs beside them (two workers, one server), so the crawl lists only what was there before: the demo data.
 */
function startedAt(): string {
  const value = process.env.E2E_STARTED_AT;
  if (value === undefined || value === '') throw new Error('E2E_STARTED_AT is not set: run the specs with `npm run test:e2e`');
  return value;
}

/** `api` narrowed to rows made before the specs started; rows without a creation time (flags from a file) are kept. */
function demoRowsOf(api: string): string {
  return `${api}&or=(created_at.lt.${encodeURIComponent(startedAt())},created_at.is.null)`;
}

/** Every demo entity of the given areas that `request`'s user may read, as addresses to crawl. */
export async function discoverDetailTargets(request: APIRequestContext, areas: readonly NavigationRoute[], depth: CrawlDepth): Promise<DiscoveredTargets> {
  const targets: CrawlTarget[] = [];
  const problems: string[] = [];
  for (const area of areas) {
    if (!(area.path in DETAIL_SOURCES)) {
      problems.push(`${area.path}: a navigation entry the crawl does not know; say how its demo entities open in e2e/support/crawl-targets.ts`);
      continue;
    }
    const source = DETAIL_SOURCES[area.path];
    if (!source) continue;
    for (const list of [source, ...(source.also ?? [])]) {
      const api = list.undated ? list.api : demoRowsOf(list.api);
      const response = await request.get(api);
      // 400 too: a list the filter above does not fit would otherwise drop its area's targets without a word.
      if (response.status() >= 500 || response.status() === 400) problems.push(`${area.path}: ${response.status()} from GET ${api}`);
      // A role that may not read the area gets 401/403 here, and its Unauthorized panel is crawled as the area's page.
      if (!response.ok()) continue;
      const rows = (await response.json()) as Row[];
      targets.push(...list.targets(rows, area, depth));
    }
  }
  return { targets, problems };
}
