import type { Resource } from '@opsdeck/shared';

export type SettingsColumn =
  | 'name'
  | 'source'
  | 'schedule'
  | 'namespace'
  | 'job_status'
  | 'last_runtime'
  | 'job_last_failed'
  | 'tags'
  | 'created_at'
  | 'updated_at'
  | 'created_by';

export type SettingsTab = 'spec' | 'manageTeam' | 'jobHistory';

/** Columns each table hides on the generic list page (spec 002 §2.2). */
export const HIDDEN_COLUMNS: Readonly<Record<string, readonly SettingsColumn[]>> = {
  topologies: ['schedule'],
  connections: ['schedule', 'namespace'],
  logging_backends: ['schedule', 'namespace'],
  notifications: ['schedule', 'namespace'],
  properties: ['schedule', 'namespace'],
  incident_rules: ['schedule', 'namespace'],
  teams: ['schedule', 'namespace'],
  canaries: ['namespace'],
  config_scrapers: ['namespace'],
};

/**
 * Where a kind's rows are written. A service validates what the data API cannot (a canary spec) and acts on the
 * change (rescheduling), so kinds that have one go through it; the others write their table through the data API.
 */
export type ResourceService = { kind: 'service'; path: string } | { kind: 'data-api' };

export type SpecEditor = 'health-check' | 'scrape-config' | 'topology' | 'yaml';

/** Everything the generic list and detail pages need to know about one settings table. */
export interface SettingsResourceKind {
  table: string;
  title: string;
  singular: string;
  resource: Resource;
  /** The view the list reads, with job status columns. */
  listView: string;
  service: ResourceService;
  tabs: readonly SettingsTab[];
  specEditor: SpecEditor;
  /** What the editor of a new resource starts with, so the user edits a working example instead of a blank. */
  newSpec?: Readonly<Record<string, unknown>>;
}

export const CANARIES_KIND: SettingsResourceKind = {
  table: 'canaries',
  title: 'Health Checks',
  singular: 'Health Check',
  resource: 'canaries',
  listView: 'canaries_with_status',
  service: { kind: 'service', path: '/api/canary/canaries' },
  tabs: ['spec', 'jobHistory'],
  specEditor: 'health-check',
};

/** Scrapers are written through the data API: its write hooks run the same save-time rules as every other path. */
export const CONFIG_SCRAPERS_KIND: SettingsResourceKind = {
  table: 'config_scrapers',
  title: 'Catalog Scrapers',
  singular: 'Catalog Scraper',
  resource: 'config_scrapers',
  listView: 'config_scrapers_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec', 'jobHistory'],
  specEditor: 'scrape-config',
};

/**
 * A root (named after the topology) with one static child and a group made of the catalog's pods: the two ways a
 * topology gets its components.
 */
export const TOPOLOGY_EXAMPLE_SPEC: Readonly<Record<string, unknown>> = {
  type: 'Application',
  icon: 'application',
  components: [
    { name: 'Web', type: 'Service' },
    { name: 'Pods', type: 'Group', lookup: { catalog: [{ types: ['Kubernetes::Pod'] }] } },
  ],
};

/** Topologies are written through the data API, whose write hooks check the spec and fill the schedule. */
export const TOPOLOGIES_KIND: SettingsResourceKind = {
  table: 'topologies',
  title: 'Topologies',
  singular: 'Topology',
  resource: 'topologies',
  listView: 'topologies_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec', 'jobHistory'],
  specEditor: 'topology',
  newSpec: TOPOLOGY_EXAMPLE_SPEC,
};

export function hiddenColumns(kind: SettingsResourceKind): ReadonlySet<SettingsColumn> {
  return new Set(HIDDEN_COLUMNS[kind.table] ?? []);
}

export function resourceListPath(kind: SettingsResourceKind): string {
  return `/settings/${kind.table}`;
}
