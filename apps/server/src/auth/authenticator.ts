import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { effectiveRoles } from '@opsdeck/shared';
import type { Principal } from '../platform/principal';
import { hashToken, SESSION_COOKIE } from './session-token';

interface SessionRow {
  session_id: string;
  person_id: string;
  name: string;
  email: string | null;
  roles: string[];
}

function tokenFrom(request: FastifyRequest): string | null {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie !== undefined && cookie !== '') return cookie;
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  return null;
}

/** Resolves the session cookie (or bearer token) to a principal; roles are read fresh on every request. */
export function createAuthenticator(pool: pg.Pool): (request: FastifyRequest) => Promise<Principal | null> {
  return async (request) => {
    const token = tokenFrom(request);
    if (token === null || token.length > 200) return null;
    const result = await pool.query<SessionRow>(
      `select s.id as session_id, p.id as person_id, p.name, p.email,
              coalesce(array(select r.role from person_roles r where r.person_id = p.id order by r.role), '{}') as roles
         from sessions s
         join identities i on i.id = s.identity_id and i.state = 'active'
         join people p on p.id = i.id and p.deleted_at is null
        where s.token_hash = $1 and s.active and s.expires_at > now()`,
      [hashToken(token)],
    );
    const row = result.rows[0];
    if (row === undefined) return null;
    return { personId: row.person_id, sessionId: row.session_id, name: row.name, email: row.email, roles: effectiveRoles(row.roles) };
  };
}
