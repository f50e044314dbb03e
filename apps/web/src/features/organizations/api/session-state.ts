import { ApiError, readBody } from '@/lib/api/api-error';
import { answeredInHostedMode } from '@/lib/auth/hosted/hosted-urls';

export type SessionState = 'signed-in' | 'signed-out-hosted' | 'signed-out' | 'second-factor';

/**
 * The session check of /auth-state-checker. Unlike the shell's, it never redirects by itself: this page is where a
 * 401 was sent, and deciding again here is its whole job.
 */
export async function checkSessionState(signal?: AbortSignal): Promise<SessionState> {
  const response = await fetch('/api/auth/sessions/whoami', { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  if (response.ok) return 'signed-in';
  if (response.status === 401) return answeredInHostedMode(response) ? 'signed-out-hosted' : 'signed-out';
  if (response.status === 403 || response.status === 422) return 'second-factor';
  throw new ApiError(response.status, await readBody(response));
}
