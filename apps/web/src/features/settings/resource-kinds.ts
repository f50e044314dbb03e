import { INCIDENT_RULE_EXAMPLE_SPEC, incidentRuleSpecProblems, type Resource } from '@opsdeck/shared';
import { logBackendSpecProblems } from './log-backend-spec';

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

export type SpecEditor = 'health-check' | 'scrape-config' | 'topology' | 'log-backend' | 'incident-rule' | 'yaml';

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
  /** False for tables whose form has no Namespace field (a log backend is name, labels and spec); shown by default. */
  hasNamespace?: boolean;
  /**
   * What is wrong with a spec beyond what the editor's JSON Schema can say (a rule across fields), one message each.
   * A kind that has it holds its submit button back until the form is valid and this answers nothing.
   */
  specProblems?: (spec: Readonly<Record<string, unknown>>) => string[];
  /** Fields an update never sends, so the server keeps what it recorded. */
  updateOmits?: readonly string[];
  /** False for tables without labels (teams): the form has no Labels field. Shown by default. */
  hasLabels?: boolean;
  /** Fields of the generic form that the kind's table lacks (teams have no namespace): never sent, on create or update. */
  absentFields?: readonly string[];
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

/**
 * A file backend over an application's log files, serving the Service components of the shop namespace. The path is
 * relative: the server looks it up under each of its log roots (OPSDECK_LOG_ROOTS, by default DATA_DIR/logs) and
 * refuses an absolute path outside them, so a relative one is the example that saves on every server.
 */
export const LOG_BACKEND_EXAMPLE_SPEC: Readonly<Record<string, unknown>> = {
  routes: [{ kind: 'component', type: 'Service', labels: { namespace: 'shop' } }],
  file: { paths: ['app/*.log'], format: 'auto' },
};

/**
 * Log backends are written through the data API, whose save rules check the spec (400 OD_LOG_BACKEND_SPEC or
 * OD_LOG_BACKEND_PATH). Spec 001 §7: an update leaves who made it and when to the server.
 */
export const LOGGING_BACKENDS_KIND: SettingsResourceKind = {
  table: 'logging_backends',
  title: 'Log Backends',
  singular: 'Log Backend',
  resource: 'logging_backends',
  listView: 'logging_backends_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec', 'jobHistory'],
  specEditor: 'log-backend',
  newSpec: LOG_BACKEND_EXAMPLE_SPEC,
  hasNamespace: false,
  specProblems: logBackendSpecProblems,
  updateOmits: ['created_by', 'created_at', 'updated_at'],
};

/**
 * Teams (spec 002 §2.2, §3): a name, an icon and a spec (responder clients, notification channels), managed on the
 * Manage Team tab; written through the data API, where deleting one only marks it deleted (migration 0103). The
 * `database` resource guards them, so editors and admins manage teams and their members.
 */
export const TEAMS_KIND: SettingsResourceKind = {
  table: 'teams',
  title: 'Teams',
  singular: 'Team',
  resource: 'database',
  listView: 'teams_with_status',
  service: { kind: 'data-api' },
  tabs: ['manageTeam', 'spec'],
  specEditor: 'yaml',
  hasNamespace: false,
  hasLabels: false,
  absentFields: ['namespace', 'labels'],
};

/**
 * Incident rules (spec 002 §2.2, issue #19): a CEL filter over checks, components and alerts, the incident a match
 * opens, grouping, auto-resolve and responders (packages/shared/src/incident-rule-spec.ts). The editor checks the spec
 * against the shared schema as it is typed; the server also compiles the filter and templates when saving. The table
 * and its status view take the `incident` resource, so responders and commanders, who write incidents, may edit rules.
 */
export const INCIDENT_RULES_KIND: SettingsResourceKind = {
  table: 'incident_rules',
  title: 'Incident Rules',
  singular: 'Incident Rule',
  resource: 'incident',
  listView: 'incident_rules_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec'],
  specEditor: 'incident-rule',
  newSpec: INCIDENT_RULE_EXAMPLE_SPEC,
  specProblems: incidentRuleSpecProblems,
};

/** `body` without the fields the kind's table lacks. */
export function withoutAbsentFields(kind: SettingsResourceKind, body: Record<string, unknown>): Record<string, unknown> {
  const absent = new Set(kind.absentFields ?? []);
  return Object.fromEntries(Object.entries(body).filter(([key]) => !absent.has(key)));
}

export function hiddenColumns(kind: SettingsResourceKind): ReadonlySet<SettingsColumn> {
  return new Set(HIDDEN_COLUMNS[kind.table] ?? []);
}

export function resourceListPath(kind: Pick<SettingsResourceKind, 'table'>): string {
  return `/settings/${kind.table}`;
}
