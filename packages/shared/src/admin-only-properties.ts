/**
 * Properties (the Feature Flags screen, table `properties`) that decide who can get in, where links and messages
 * point, and how long records are kept: only an administrator may create, change or delete one, whichever write path
 * of the data API is taken (POST, upsert, filtered PATCH, DELETE, a function called through rpc). A name is
 * admin-only when, lower-cased, it starts with one of these prefixes. The database enforces the rule (migration
 * 0109, `property_needs_admin`, which must list the same prefixes: security-properties.test.ts compares them), so no
 * path around this file's callers can skip it; the Feature Flags screen uses the same list to offer such a property's
 * changes to administrators only, and docs/security.md lists them for operators.
 */
export const ADMIN_ONLY_PROPERTY_PREFIXES = [
  // Sign-up and sign-in: identity.registration.enabled opens public registration.
  'identity.',
  'auth.',
  'oidc.',
  'registration.',
  'session.',
  'sessions.',
  // Guards the server applies to what users make it reach, e.g. security.database.allow_local.
  'security.',
  // Where links in notifications and mail point: public.url.
  'public.',
  'mail.',
  'smtp.',
  'email.',
  // How long evidence is kept: audit.retention.days, retention.job_history.days and the other retention ages.
  'audit.',
  'retention.',
] as const;

export function isAdminOnlyProperty(name: string): boolean {
  const lower = name.toLowerCase();
  return ADMIN_ONLY_PROPERTY_PREFIXES.some((prefix) => lower.startsWith(prefix));
}
