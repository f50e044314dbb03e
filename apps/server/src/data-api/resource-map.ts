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
  // Links a user makes from a component (Link to config, team owners) are topology edits.
  config_component_relationships: 'topologies',
  team_components: 'topologies',
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
  // The Users screen's list (migration 0103): named here rather than left to the `_summary` rule, so no renaming of
  // the rules can ever let it fall back to `database`, which every role reads.
  identities_summary: 'identities',
  // #19: who changed what is for admins alone; the audit plugin refuses every write to it, admins' included.
  audit_log: 'audit',
  // Ingested alerts are incident evidence (#19): read with incidents; the server alone writes them.
  alerts: 'incident',
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
  ['topology_', 'topologies'],
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
  ['audit_', 'audit'],
];

const VIEW_SUFFIXES = ['_with_status', '_summary'] as const;

/**
 * The identity and security machinery, matched by family rather than listed, so a table added later (api_tokens,
 * recovery_codes, login_rate_limits…) is unreachable the moment it exists. `UNREACHABLE_EXACT` holds the names no
 * family describes; `WORDS` are whole words of a snake_case name; `FRAGMENTS` match anywhere, for names written
 * without separators (apitokens, loginattempts).
 */
// exec_artifacts: files scripts wrote, served by /api/artifacts/{id} with the permission of the run or check that kept them.
const UNREACHABLE_EXACT: ReadonlySet<string> = new Set(['schema_migrations', 'exec_artifacts']);
const UNREACHABLE_WORDS: ReadonlySet<string> = new Set([
  'auth', 'oauth', 'oidc', 'saml', 'sso', 'csrf', 'mfa', 'otp', 'totp', 'hotp', 'webauthn', 'passkey', 'passkeys',
  'flow', 'flows', 'recovery', 'verification', 'verifications', 'verifiable', 'lockout', 'lockouts', 'migrations',
]);
const UNREACHABLE_FRAGMENTS = [
  'session', 'credential', 'login', 'logout', 'signin', 'password', 'passwd', 'token', 'secret', 'throttl',
  'ratelimit', 'rate_limit', 'apikey', 'api_key', 'privatekey', 'private_key',
] as const;

/**
 * True for every table, view and function of the identity and security machinery — sessions, credentials, identity
 * flows, recovery and verification codes, tokens, sign-in throttling — and for the migration ledger. `identity_`
 * names are the identity service's own tables; `identities` itself is the managed list of spec 002 §6.
 */
export function isUnreachable(name: string): boolean {
  const lower = name.toLowerCase();
  if (UNREACHABLE_EXACT.has(lower) || lower.startsWith('identity_')) return true;
  if (lower.split('_').some((word) => UNREACHABLE_WORDS.has(word))) return true;
  return UNREACHABLE_FRAGMENTS.some((fragment) => lower.includes(fragment));
}

export { isSecretColumn } from '../platform/secret-columns';

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

export type WriteAction = 'insert' | 'update' | 'delete';

/**
 * Columns of `people` that the ordinary `database` write may change: what a person is called and looks like, and
 * the team shown on their profile (people.team_id grants nothing; membership is team_members, guarded below).
 * updated_at is set by a trigger whatever is sent. Everything else decides who a person is or whether they can sign in
 * (e-mail, type, id, deleted_at), so changing it, creating a person or deleting one is managing users: the
 * `identities` write (invite and delete users).
 */
const PERSON_PROFILE_COLUMNS: ReadonlySet<string> = new Set(['name', 'avatar', 'team_id', 'updated_at']);

function personGuard(table: string, action: WriteAction, columns: readonly string[]): Resource | null {
  if (table !== 'people') return null;
  if (action === 'update' && columns.every((column) => PERSON_PROFILE_COLUMNS.has(column))) return null;
  return 'identities';
}

/**
 * Who sits in a team decides who may approve playbook runs the team is named for (and who is paged for it), so adding
 * or removing a member grants or withdraws a permission: it needs the `rbac` write (add a role to a user, spec 002 §6;
 * admins by default) on every path, while the teams themselves stay the `database` write of editors. An editor who
 * could add themselves to the approver team could approve anything it guards (#31).
 */
function membershipGuard(table: string): Resource | null {
  return table === 'team_members' ? 'rbac' : null;
}

/** One resource a write needs; `resource` null means nobody may write `table`. */
export interface WriteGuard {
  table: string;
  resource: Resource | null;
}

/**
 * Every resource a write needs, the relation's own first. A write through a view reaches the tables beneath it
 * (`reads`), and which of their columns a view column stands for is not known here, so it needs write on each of
 * them as if it changed every column: a view over people needs `identities`, one over person_roles `rbac`.
 */
export function writeGuards(name: string, action: WriteAction, columns: readonly string[], reads: readonly string[]): WriteGuard[] {
  const guards: WriteGuard[] = [{ table: name, resource: resourceFor(name) }];
  const own = personGuard(name, action, columns) ?? membershipGuard(name);
  if (own !== null) guards.push({ table: name, resource: own });
  for (const table of reads) {
    guards.push({ table, resource: resourceFor(table) });
    const beneath = personGuard(table, 'update', ['*']) ?? membershipGuard(table);
    if (beneath !== null) guards.push({ table, resource: beneath });
  }
  return guards;
}
