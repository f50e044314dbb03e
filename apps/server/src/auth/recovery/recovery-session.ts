import type pg from 'pg';
import type { EventBus } from '../../platform/event-bus';
import { SESSION_ENDED_EVENT } from '../sessions/authenticator';
import { createSession, revokeOtherSessions } from '../sessions/sessions';
import { SESSION_TTL_MS } from '../shared/session-token';

/** How the session was earned, as Kratos names recovery sessions. */
export type RecoveryMethod = 'code_recovery' | 'link_recovery';

/** Where a recovered person goes: the settings page, to set a new password, then back to where the flow began. */
export function settingsLocation(returnTo: string | null): string {
  if (returnTo === null) return '/profile-settings';
  return `/profile-settings?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}

/**
 * Signs the identity in after a recovery. The session is privileged (authenticated now), so the settings flow lets
 * the person set a password without asking for the lost one. Every other session of the identity ends: whoever holds
 * the old password, or a stolen cookie, is out.
 */
export async function startRecoverySession(
  pool: pg.Pool,
  bus: EventBus,
  identityId: string,
  method: RecoveryMethod,
): Promise<{ id: string; token: string }> {
  const session = await createSession(pool, identityId, 'password', SESSION_TTL_MS);
  // createSession records how a sign-in happened from a fixed list; a recovery is none of those, so it is named here.
  await pool.query(
    `update sessions
        set authentication_methods = jsonb_build_array(jsonb_build_object('method', $2::text, 'aal', 'aal1', 'completed_at', now()))
      where id = $1`,
    [session.id, method],
  );
  await revokeOtherSessions(pool, identityId, session.id);
  bus.publish({ name: SESSION_ENDED_EVENT, payload: {} });
  return session;
}
