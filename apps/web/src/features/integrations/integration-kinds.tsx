import { logBackendSpecJsonSchema, scrapeConfigJsonSchema, topologySpecJsonSchema } from '@opsdeck/shared';
import { ScraperTypeIcon } from '@/components/scraper-type-icon/scraper-type-icon';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { logBackendSpecProblems } from './log-backend-spec';

/** Scrapers are written through the data API: its write hooks run the same save-time rules as every other path. */
export const CONFIG_SCRAPERS_KIND: SettingsResourceKind = {
  table: 'config_scrapers',
  title: 'Catalog Scrapers',
  singular: 'Catalog Scraper',
  resource: 'config_scrapers',
  listView: 'config_scrapers_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec', 'jobHistory'],
  hiddenColumns: ['namespace'],
  specSchema: () => scrapeConfigJsonSchema,
  nameIcon: (row) => <ScraperTypeIcon spec={row.spec} />,
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
  hiddenColumns: ['schedule'],
  specSchema: () => topologySpecJsonSchema,
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
  hiddenColumns: ['schedule', 'namespace'],
  specSchema: logBackendSpecJsonSchema,
  newSpec: LOG_BACKEND_EXAMPLE_SPEC,
  hasNamespace: false,
  specProblems: logBackendSpecProblems,
  updateOmits: ['created_by', 'created_at', 'updated_at'],
};
