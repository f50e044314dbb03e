import type { Resource } from '@opsdeck/shared';

/**
 * Which permission resource guards each table, view and function of the data API. Names not listed fall back to
 * `database`; names that hold credentials or sessions map to nothing, so no role (not even admin) reaches them.
 */
const EXACT: Readonly<Record<string, Resource>> = {
  incidents: 'incident',
  hypotheses: 'incident',
  evidences: 'evidences',
  comments: 'comments',
  responders: 'responder',
  properties: 'feature_flags',
  canaries: 'canaries',
  checks: 'canaries',
  topologies: 'topologies',
  components: 'topologies',
  config_scrapers: 'config_scrapers',
  connections: 'connections',
  agents: 'agents',
  logging_backends: 'logging_backends',
  integrations: 'integrations',
  notifications: 'notifications',
  playbooks: 'playbooks',
  playbook_runs: 'playbook_runs',
  person_roles: 'rbac',
  identities: 'identities',
};

/** Families of tables and views that share a name prefix with the table they describe. */
const PREFIXES: ReadonlyArray<readonly [string, Resource]> = [
  ['incident_', 'incident'],
  ['incidents_', 'incident'],
  ['hypothesis_', 'incident'],
  ['check_statuses', 'canaries'],
  ['checks_', 'canaries'],
  ['check_', 'canaries'],
  ['canaries_', 'canaries'],
  ['topologies_', 'topologies'],
  ['components_', 'topologies'],
  ['component_', 'topologies'],
  ['config_scrapers_', 'config_scrapers'],
  ['connections_', 'connections'],
  ['agents_', 'agents'],
  ['logging_backends_', 'logging_backends'],
  ['integrations_', 'integrations'],
  ['integration_', 'integrations'],
  ['notifications_', 'notifications'],
  ['notification_', 'notifications'],
  ['playbook_runs_', 'playbook_runs'],
  ['playbook_run_', 'playbook_runs'],
  ['playbooks_', 'playbooks'],
  ['evidences_', 'evidences'],
  ['comments_', 'comments'],
  ['responders_', 'responder'],
];

const VIEW_SUFFIXES = ['_with_status', '_summary'] as const;

const UNREACHABLE_EXACT: ReadonlySet<string> = new Set(['sessions', 'identity_credentials', 'schema_migrations', 'self_service_flows']);

/** True for tables that hold sessions, credentials or identity flows, and for the migration ledger. */
export function isUnreachable(name: string): boolean {
  return UNREACHABLE_EXACT.has(name) || name.endsWith('_flows') || name.startsWith('identity_credential') || name.startsWith('session_');
}

/** Columns that hold secrets are treated as if they did not exist: never selected, filtered, ordered or written. */
export function isSecretColumn(name: string): boolean {
  return /(_encrypted|token_hash|password_hash)$/.test(name);
}

/** The resource guarding a table, view or function; null when nobody may reach it. */
export function resourceFor(name: string): Resource | null {
  if (isUnreachable(name)) return null;
  const exact = EXACT[name];
  if (exact !== undefined) return exact;
  for (const [prefix, resource] of PREFIXES) {
    if (name.startsWith(prefix)) return resource;
  }
  for (const suffix of VIEW_SUFFIXES) {
    if (name.endsWith(suffix) && name.length > suffix.length) return resourceFor(name.slice(0, -suffix.length));
  }
  return 'database';
}
