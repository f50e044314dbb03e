import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { effectiveRoles, ROLES } from '@opsdeck/shared';
import { deriveSubkey } from '../../platform/secrets';
import { toIso, type Aal } from '../shared/flow-store';
import { hashToken, newSessionToken } from '../shared/session-token';

export type SecondFactorMethod = 'totp' | 'lookup_secret' | 'webauthn';
export type AuthenticationMethod = 'password' | 'kubeconfig' | 'oidc' | SecondFactorMethod;

/** How long after signing in (or confirming it is them) a person may change credentials without being asked again. */
export const PRIVILEGED_SESSION_MS = 15 * 60 * 1000;

/**
 * A session derived from another (a kubeconfig token) inherits its assurance: its aal, or a person with a second
 * factor would get a token that never works, and the time of its sign-in, or minting a token would turn a stale session
 * into a privileged one that may change the password without signing in again.
 */
export interface DerivedFrom {
  aal: Aal;
  authenticatedAt: string;
}

/** Inserts a session; the caller gets the only copy of the raw token, the database keeps its SHA-256. */
export async function createSession(
  pool: pg.Pool,
  identityId: string,
  method: AuthenticationMethod,
  ttlMs: number,
  derivedFrom?: DerivedFrom,
): Promise<{ id: string; token: string }> {
  const token = newSessionToken();
  const result = await pool.query<{ id: string }>(
    `insert into sessions (token_hash, identity_id, aal, authentication_methods, authenticated_at, expires_at)
     values ($1, $2, $5, jsonb_build_array(jsonb_build_object('method', $3::text, 'aal', $5::text, 'completed_at', now())),
             coalesce($6::timestamptz, now()), now() + make_interval(secs => $4::double precision / 1000))
     returning id`,
    [hashToken(token), identityId, method, ttlMs, derivedFrom?.aal ?? 'aal1', derivedFrom?.authenticatedAt ?? null],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('session insert returned no id');
  return { id, token };
}

const authenticationMethodSchema = z.object({ method: z.string(), aal: z.string(), completed_at: z.string() });

export const identityResponseSchema = z.object({
  id: z.string(),
  schema_id: z.string(),
  state: z.enum(['active', 'inactive']),
  traits: z.record(z.string(), z.unknown()),
  metadata_public: z.null(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const sessionResponseSchema = z.object({
  id: z.string(),
  active: z.boolean(),
  expires_at: z.string(),
  authenticated_at: z.string(),
  authenticator_assurance_level: z.enum(['aal1', 'aal2']),
  authentication_methods: z.array(authenticationMethodSchema),
  issued_at: z.string(),
  identity: identityResponseSchema,
  // Opsdeck's additions: the person behind the identity and the roles read fresh for this request.
  person: z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), avatar: z.string().nullable() }),
  roles: z.array(z.enum(ROLES)),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** A session row joined to its identity, person and current roles. */
export interface ActiveSessionRow {
  id: string;
  active: boolean;
  expires_at: string;
  authenticated_at: string;
  issued_at: string;
  aal: Aal;
  /**
   * aal1 while the identity has a TOTP or WebAuthn credential: the session is not a sign-in until that factor passes.
   * Never for a hosted-mode (OIDC) session: the provider decides how strongly people sign in, and the console's own
   * second-factor step is closed in that mode, so owing a factor there would lock the person out.
   */
  needs_second_factor: boolean;
  authentication_methods: unknown;
  identity_id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  traits: Record<string, unknown>;
  identity_created_at: string;
  identity_updated_at: string;
  name: string;
  email: string | null;
  avatar: string | null;
  roles: string[];
}

/**
 * The one definition of a live session: active and unexpired, its identity active and its person not deleted, with
 * the person's roles read from person_roles now rather than cached at sign-in. Found by id or by the token's hash.
 * A session still owing its second factor is found too (the aal2 step and whoami need it); `needs_second_factor`
 * says so, and the authenticator turns such a session away.
 */
export async function findActiveSession(pool: pg.Pool, key: { id: string } | { tokenHash: string }): Promise<ActiveSessionRow | null> {
  const [column, value] = 'id' in key ? ['s.id', key.id] : ['s.token_hash', key.tokenHash];
  const result = await pool.query<ActiveSessionRow>(
    `select s.id, s.active, s.expires_at, s.authenticated_at, s.issued_at, s.aal, s.authentication_methods,
            (s.aal = 'aal1' and not s.authentication_methods @> '[{"method": "oidc"}]'::jsonb and exists (
              select 1 from identity_credentials c where c.identity_id = i.id and c.type in ('totp', 'webauthn')
            )) as needs_second_factor,
            i.id as identity_id, i.schema_id, i.state, i.traits,
            i.created_at as identity_created_at, i.updated_at as identity_updated_at,
            p.name, p.email, p.avatar,
            coalesce(array(select r.role from person_roles r where r.person_id = p.id order by r.role), '{}') as roles
       from sessions s
       join identities i on i.id = s.identity_id and i.state = 'active'
       join people p on p.id = i.id and p.deleted_at is null
      where ${column} = $1 and s.active and s.expires_at > now()`,
    [value],
  );
  return result.rows[0] ?? null;
}

/** The session in Kratos's shape, as it is now in the database: whoami must never answer from a cache. */
export async function describeSession(pool: pg.Pool, sessionId: string): Promise<SessionResponse | null> {
  const row = await findActiveSession(pool, { id: sessionId });
  if (row === null) return null;
  const methods = z.array(authenticationMethodSchema).parse(row.authentication_methods);
  return {
    id: row.id,
    active: row.active,
    expires_at: toIso(row.expires_at),
    authenticated_at: toIso(row.authenticated_at),
    authenticator_assurance_level: row.aal,
    authentication_methods: methods.map((method) => ({ ...method, completed_at: toIso(method.completed_at) })),
    issued_at: toIso(row.issued_at),
    identity: {
      id: row.identity_id,
      schema_id: row.schema_id,
      state: row.state,
      traits: row.traits,
      metadata_public: null,
      created_at: toIso(row.identity_created_at),
      updated_at: toIso(row.identity_updated_at),
    },
    person: { id: row.identity_id, name: row.name, email: row.email, avatar: row.avatar },
    roles: effectiveRoles(row.roles),
  };
}

/** Whether the session's last sign-in (or confirmation that it is them) is recent enough to change credentials. */
export function isPrivileged(session: Pick<ActiveSessionRow, 'authenticated_at'>, now = Date.now()): boolean {
  return now - Date.parse(toIso(session.authenticated_at)) < PRIVILEGED_SESSION_MS;
}

/**
 * The session passed a second factor: it becomes aal2 and counts as authenticated now. The same session is kept, so
 * the browser's cookie stays valid and no second session appears.
 */
export async function upgradeSession(pool: pg.Pool, sessionId: string, method: SecondFactorMethod): Promise<void> {
  await pool.query(
    `update sessions
        set aal = 'aal2', authenticated_at = now(), updated_at = now(),
            authentication_methods = authentication_methods
              || jsonb_build_array(jsonb_build_object('method', $2::text, 'aal', 'aal2', 'completed_at', now()))
      where id = $1 and active`,
    [sessionId, method],
  );
}

/** A refresh sign-in of the session's own person: it counts as authenticated now and keeps its assurance level. */
export async function refreshSession(pool: pg.Pool, sessionId: string, method: AuthenticationMethod): Promise<void> {
  await pool.query(
    `update sessions
        set authenticated_at = now(), updated_at = now(),
            authentication_methods = authentication_methods
              || jsonb_build_array(jsonb_build_object('method', $2::text, 'aal', aal, 'completed_at', now()))
      where id = $1 and active`,
    [sessionId, method],
  );
}

/** Ends every other session of the identity (browser sessions and kubeconfig tokens alike) after a credential change. */
export async function revokeOtherSessions(pool: pg.Pool, identityId: string, keepSessionId: string): Promise<number> {
  const result = await pool.query('update sessions set active = false, updated_at = now() where identity_id = $1 and id <> $2 and active', [
    identityId,
    keepSessionId,
  ]);
  return result.rowCount ?? 0;
}

/**
 * Derived from the session id with a sub-key of the server key, so every tab asking for a logout URL gets the same
 * working token; only its hash is stored, to find the session again.
 */
export async function issueLogoutToken(pool: pg.Pool, secretKey: Buffer, sessionId: string): Promise<string> {
  const token = createHmac('sha256', deriveSubkey(secretKey, 'logout-token')).update(`logout:${sessionId}`).digest('base64url');
  await pool.query('update sessions set logout_token_hash = $2 where id = $1', [sessionId, hashToken(token)]);
  return token;
}

/** Ends the session the logout token belongs to; false when the token matches no active session. */
export async function endSessionByLogoutToken(pool: pg.Pool, token: string): Promise<boolean> {
  const result = await pool.query(
    'update sessions set active = false, updated_at = now() where logout_token_hash = $1 and active',
    [hashToken(token)],
  );
  return result.rowCount === 1;
}

/** Ended sessions are kept a day for the record; expired ones, stale flows and old login failures are removed. */
export async function sweepAuthState(pool: pg.Pool, loginFailureWindowMs: number): Promise<void> {
  await pool.query(`delete from sessions where expires_at < now() or (not active and updated_at < now() - interval '1 day')`);
  // Expired flows linger a day so that a late submit still gets 410 (start again) rather than 404.
  await pool.query(`delete from self_service_flows where expires_at < now() - interval '1 day'`);
  await pool.query('delete from login_failures where failed_at < now() - make_interval(secs => $1::double precision / 1000)', [
    loginFailureWindowMs,
  ]);
}
