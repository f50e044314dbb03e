import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { effectiveRoles } from '@opsdeck/shared';
import { NO_SESSION_ID, type Principal } from '../../platform/principal';
import type { EventBus } from '../../platform/event-bus';
import { API_TOKEN_PREFIX, findUsableToken, isApiTokenShape, touchToken } from './api-tokens';
import { hashToken, SESSION_COOKIE } from '../shared/session-token';
import { findActiveSession, type ActiveSessionRow } from './sessions';

export interface AuthenticatorOptions {
  /**
   * How long a resolved session is reused for further requests with the same token. A page fires several calls at
   * once; without this every one of them pays a database round trip before its real query. Kept to a second so a
   * logout or a role change is honoured everywhere almost at once; whoami always reads the database.
   */
  cacheTtlMs?: number;
  now?: () => number;
  /** A logout in this process empties the cache at once; other processes honour it within the TTL. */
  bus?: EventBus;
}

export const SESSION_ENDED_EVENT = 'session.ended';
/** A session's standing changed (its second factor passed, or other sessions were revoked): cached answers are stale. */
export const SESSION_CHANGED_EVENT = 'session.changed';
/** An API token was revoked: this process stops honouring it at once, others within the cache TTL. */
export const API_TOKEN_REVOKED_EVENT = 'api_token.revoked';

const DEFAULT_CACHE_TTL_MS = 1000;
const MAX_CACHED_SESSIONS = 5000;

/**
 * The personal API token of `Authorization: Bearer odt_…`, or null. It wins over a session cookie sent alongside: the
 * header is what the caller chose for this request, and another site cannot set it.
 */
export function apiTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith(`Bearer ${API_TOKEN_PREFIX}`) !== true) return null;
  return header.slice('Bearer '.length).trim();
}

export function sessionTokenOf(request: FastifyRequest): string | null {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie !== undefined && cookie !== '') return cookie;
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  return null;
}

/**
 * The request's live session as it is in the database, whatever its assurance level: for the routes that deal with
 * a session still owing its second factor (the aal2 step, whoami), which the authenticator does not let through.
 */
export async function findRequestSession(pool: pg.Pool, request: FastifyRequest): Promise<ActiveSessionRow | null> {
  const token = sessionTokenOf(request);
  if (token === null || token.length > 200) return null;
  return findActiveSession(pool, { tokenHash: hashToken(token) });
}

async function lookup(pool: pg.Pool, tokenHash: string): Promise<Principal | null> {
  const row = await findActiveSession(pool, { tokenHash });
  // A password alone does not sign in a person who set up a second factor: every route sees no session until it passes.
  if (row === null || row.needs_second_factor) return null;
  return { personId: row.identity_id, sessionId: row.id, name: row.name, email: row.email, roles: effectiveRoles(row.roles), via: 'session' };
}

async function lookupApiToken(pool: pg.Pool, tokenHash: string): Promise<Principal | null> {
  const token = await findUsableToken(pool, tokenHash);
  if (token === null) return null;
  await touchToken(pool, token);
  return { personId: token.personId, sessionId: NO_SESSION_ID, name: token.name, email: token.email, roles: token.roles, via: 'api_token', apiTokenId: token.id };
}

/**
 * Resolves a personal API token (`Bearer odt_…`), else the session cookie or session bearer token, to a principal with
 * its roles as of at most one cache TTL ago.
 */
export function createAuthenticator(
  pool: pg.Pool,
  options: AuthenticatorOptions = {},
): (request: FastifyRequest) => Promise<Principal | null> {
  const ttl = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { principal: Principal | null; until: number }>();
  options.bus?.subscribe(SESSION_ENDED_EVENT, () => cache.clear());
  options.bus?.subscribe(SESSION_CHANGED_EVENT, () => cache.clear());
  options.bus?.subscribe(API_TOKEN_REVOKED_EVENT, () => cache.clear());
  return async (request) => {
    const apiToken = apiTokenOf(request);
    // A malformed odt_ token is refused here rather than tried as a session token.
    if (apiToken !== null && !isApiTokenShape(apiToken)) return null;
    const token = apiToken ?? sessionTokenOf(request);
    if (token === null || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const cached = cache.get(tokenHash);
    if (cached !== undefined && cached.until > now()) return cached.principal;
    const principal = apiToken === null ? await lookup(pool, tokenHash) : await lookupApiToken(pool, tokenHash);
    if (ttl > 0) {
      if (cache.size >= MAX_CACHED_SESSIONS) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.delete(tokenHash);
      cache.set(tokenHash, { principal, until: now() + ttl });
    }
    return principal;
  };
}
