import { isRole, type Role } from '@opsdeck/shared';

/** An organization as the provider names it; a bare string in the claim is both the id and the name. */
export interface OidcOrganization {
  id: string;
  name: string;
}

/** What a sign-in takes from the provider's claims (ID token merged with userinfo). */
export interface OidcProfile {
  issuer: string;
  subject: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  /** Never empty: a person the claim gives no known role is a viewer. */
  roles: Role[];
  organizations: OidcOrganization[];
}

export type ClaimsProblem = 'email_missing' | 'email_unverified';

export interface ClaimNames {
  rolesClaim: string;
  organizationsClaim: string;
}

// Bounds on what a provider may make us store: a claim is input like any other.
const MAX_ORGANIZATIONS = 100;
const MAX_ORGANIZATION_TEXT = 200;
const MAX_EMAIL = 320;
const MAX_NAME = 200;

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A claim by its configured name: the exact key first (Auth0-style names are URLs full of dots), then, for a dotted
 * name, the nested path (Keycloak puts roles under `realm_access.roles`).
 */
export function readClaim(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  if (!name.includes('.')) return undefined;
  let current: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Known Opsdeck roles only, compared without case; none at all means viewer, as for every other person. */
export function rolesFromClaim(value: unknown): Role[] {
  const raw = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
  const roles = new Set<Role>();
  for (const entry of raw) {
    const role = text(entry)?.toLowerCase();
    if (role !== undefined && isRole(role)) roles.add(role);
  }
  return roles.size === 0 ? ['viewer'] : [...roles].sort();
}

function organizationFrom(entry: unknown): OidcOrganization | null {
  if (typeof entry === 'string') {
    const id = text(entry);
    return id === undefined ? null : { id, name: id };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null;
  const record = entry as Record<string, unknown>;
  const id = text(record.id) ?? (typeof record.id === 'number' ? String(record.id) : undefined);
  if (id === undefined) return null;
  return { id, name: text(record.name) ?? id };
}

/** Strings or `{id, name}` objects; malformed entries and over-long values are skipped, duplicates merged. */
export function organizationsFromClaim(value: unknown): OidcOrganization[] {
  if (!Array.isArray(value)) return [];
  const byId = new Map<string, OidcOrganization>();
  for (const entry of value) {
    const organization = organizationFrom(entry);
    if (organization === null || organization.id.length > MAX_ORGANIZATION_TEXT) continue;
    if (byId.has(organization.id)) continue;
    byId.set(organization.id, { id: organization.id, name: organization.name.slice(0, MAX_ORGANIZATION_TEXT) });
    if (byId.size >= MAX_ORGANIZATIONS) break;
  }
  return [...byId.values()];
}

function splitName(full: string): { first: string; last: string } {
  const space = full.indexOf(' ');
  return space < 0 ? { first: full, last: '' } : { first: full.slice(0, space), last: full.slice(space + 1).trim() };
}

/**
 * The person the claims describe. People are matched by email, so a sign-in without one is refused, and so is an
 * address the provider itself says it has not verified: otherwise anybody who can register that address at the
 * provider would become the console user who owns it. A provider that does not send email_verified is trusted.
 */
export function profileFromClaims(
  issuer: string,
  claims: Readonly<Record<string, unknown>>,
  names: ClaimNames,
): { profile: OidcProfile } | { problem: ClaimsProblem } {
  const subject = text(claims.sub);
  const email = text(claims.email);
  if (subject === undefined || email === undefined || email.length > MAX_EMAIL || !email.includes('@')) return { problem: 'email_missing' };
  if (claims.email_verified === false || claims.email_verified === 'false') return { problem: 'email_unverified' };

  const given = text(claims.given_name);
  const family = text(claims.family_name);
  const fullName =
    text(claims.name) ?? ([given, family].filter((part) => part !== undefined).join(' ') || (text(claims.preferred_username) ?? email.split('@')[0] ?? email));
  const name = fullName.slice(0, MAX_NAME);
  const split = splitName(name);
  return {
    profile: {
      issuer,
      subject,
      email,
      name,
      firstName: (given ?? split.first).slice(0, MAX_NAME),
      lastName: (family ?? split.last).slice(0, MAX_NAME),
      roles: rolesFromClaim(readClaim(claims, names.rolesClaim)),
      organizations: organizationsFromClaim(readClaim(claims, names.organizationsClaim)),
    },
  };
}
