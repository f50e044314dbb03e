/**
 * Personal API tokens (#19): their shape, the roles they act with, and their rows. Lives in auth/ beside the sessions,
 * since the authenticator resolves them; the routes that manage them are modules/api-tokens.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { effectiveRoles, highestRole, ROLE_RANK, type Role } from '@opsdeck/shared';
import { toIso } from '../shared/flow-store';
import { hashToken } from '../shared/session-token';

/** Every personal API token starts with this, so a leaked one is recognisable (and secret scanners can match it). */
export const API_TOKEN_PREFIX = 'odt_';
/** `odt_` and 32 random bytes in base64url. */
const TOKEN_SHAPE = /^odt_[A-Za-z0-9_-]{43}$/;
/** A token's last use is written at most this often, so a busy script does not turn every call into a write. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** The choices of the profile page; the route accepts any whole number of days up to a year. */
export const EXPIRY_CHOICES_DAYS = [7, 30, 90, 365] as const;
export const MAX_EXPIRY_DAYS = 365;
/** Live (unrevoked, unexpired) tokens one person may hold: enough for every script, few enough to review. */
export const MAX_LIVE_TOKENS = 50;

export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isApiTokenShape(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * The roles a token acts with: its own role while its owner still ranks at least that high, else the owner's highest
 * role now, so demoting a person demotes their tokens at once and a token never outranks its owner.
 */
export function tokenRoles(tokenRole: Role, ownerRoles: readonly string[]): Role[] {
  const owner = highestRole(ownerRoles);
  return ROLE_RANK[owner] >= ROLE_RANK[tokenRole] ? [tokenRole] : [owner];
}

export function outranks(role: Role, roles: readonly string[]): boolean {
  return ROLE_RANK[role] > ROLE_RANK[highestRole(roles)];
}

export interface UsableToken {
  id: string;
  personId: string;
  name: string;
  email: string | null;
  roles: Role[];
  /** Milliseconds since the epoch, or null before the first use. */
  lastUsedAt: number | null;
}

interface UsableRow {
  id: string;
  person_id: string;
  role: Role;
  last_used_at: string | null;
  name: string;
  email: string | null;
  owner_roles: string[];
}

/**
 * The token with this hash when it can be used now: not revoked, not expired, its owner's identity active and the
 * person not deleted; with the roles it acts with. Null otherwise.
 */
export async function findUsableToken(pool: pg.Pool, tokenHash: string): Promise<UsableToken | null> {
  const result = await pool.query<UsableRow>(
    `select t.id, t.person_id, t.role, t.last_used_at, p.name, p.email,
            coalesce(array(select r.role from person_roles r where r.person_id = p.id order by r.role), '{}') as owner_roles
       from api_tokens t
       join people p on p.id = t.person_id and p.deleted_at is null
       join identities i on i.id = p.id and i.state = 'active'
      where t.token_hash = $1 and t.revoked_at is null and t.expires_at > now()`,
    [tokenHash],
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  return {
    id: row.id,
    personId: row.person_id,
    name: row.name,
    email: row.email,
    roles: tokenRoles(row.role, effectiveRoles(row.owner_roles)),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).getTime(),
  };
}

/** Records a use, unless one was recorded within LAST_USED_RESOLUTION_MS (the condition is checked again in SQL). */
export async function touchToken(pool: pg.Pool, token: Pick<UsableToken, 'id' | 'lastUsedAt'>, now = Date.now()): Promise<void> {
  if (token.lastUsedAt !== null && now - token.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
  await pool.query(
    `update api_tokens set last_used_at = now()
      where id = $1 and (last_used_at is null or last_used_at < now() - make_interval(secs => $2::double precision / 1000))`,
    [token.id, LAST_USED_RESOLUTION_MS],
  );
}

/** A token as its owner sees it: never its hash. */
export interface ApiTokenView {
  id: string;
  name: string;
  role: Role;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

/** The row as the pool hands it over: the same fields, its timestamps in PostgreSQL's text until `view` makes them ISO. */
type ViewRow = ApiTokenView;

function view(row: ViewRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    created_at: toIso(row.created_at),
    expires_at: toIso(row.expires_at),
    last_used_at: row.last_used_at === null ? null : toIso(row.last_used_at),
  };
}

const VIEW_COLUMNS = 'id, name, role, created_at, expires_at, last_used_at';

/** A person's unrevoked tokens, expired ones included (they show as expired until revoked), newest first. */
export async function listTokens(pool: pg.Pool, personId: string): Promise<ApiTokenView[]> {
  const result = await pool.query<ViewRow>(
    `select ${VIEW_COLUMNS} from api_tokens where person_id = $1 and revoked_at is null order by created_at desc, id desc`,
    [personId],
  );
  return result.rows.map(view);
}

export async function countLiveTokens(pool: pg.Pool, personId: string): Promise<number> {
  const result = await pool.query<{ n: number }>(
    'select count(*)::int as n from api_tokens where person_id = $1 and revoked_at is null and expires_at > now()',
    [personId],
  );
  return result.rows[0]?.n ?? 0;
}

export interface NewToken {
  personId: string;
  name: string;
  role: Role;
  expiresInDays: number;
}

/** Stores the token's hash; the caller gets the only copy of the token itself. */
export async function createToken(pool: pg.Pool, input: NewToken): Promise<{ token: string; view: ApiTokenView }> {
  const token = newApiToken();
  const result = await pool.query<ViewRow>(
    `insert into api_tokens (person_id, name, token_hash, role, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(days => $5::int))
     returning ${VIEW_COLUMNS}`,
    [input.personId, input.name, hashToken(token), input.role, input.expiresInDays],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('api token insert returned no row');
  return { token, view: view(row) };
}

/**
 * Revokes a live token: the owner's own, or anyone's for an administrator (`anyOwner`). False when there is no such
 * unrevoked token the caller may revoke, so a stranger's token id answers like an unknown one.
 */
export async function revokeToken(pool: pg.Pool, id: string, personId: string, anyOwner: boolean): Promise<boolean> {
  const result = await pool.query(
    'update api_tokens set revoked_at = now() where id = $1 and revoked_at is null and ($3::boolean or person_id = $2)',
    [id, personId, anyOwner],
  );
  return result.rowCount === 1;
}
