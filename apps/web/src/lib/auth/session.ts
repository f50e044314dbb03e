import { useQuery } from '@tanstack/react-query';
import { ApiError, readBody } from '@/lib/api/api-error';
import { currentAppPath, navigateApp, redirectToLogin } from '@/lib/app-navigator';
import { answeredInHostedMode, AUTH_STATE_CHECKER_PATH, authStateCheckerPath } from './hosted/hosted-urls';

export interface SessionPerson {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

export interface SessionIdentity {
  id: string;
  traits: { email?: string; name?: { first?: string; last?: string } };
}

export interface Session {
  id: string;
  active: boolean;
  identity: SessionIdentity;
  person: SessionPerson;
  roles: string[];
  /** How the session was established; `oidc` for a sign-in through the hosted-mode provider. */
  authentication_methods?: { method: string }[];
}

/** A session from a sign-in at the OpenID Connect provider, which alone can carry organizations. */
export function isHostedSession(session: Session): boolean {
  return session.authentication_methods?.some((method) => method.method === 'oidc') ?? false;
}

/**
 * Hosted mode sends a 401 to the state checker (spec 002 §8), which asks again and then goes to the provider or back;
 * the server marks its hosted-mode answers, so no extra request is needed to know which mode this is.
 */
function redirectSignedOut(response: Response): void {
  if (!answeredInHostedMode(response)) {
    redirectToLogin('sign-in');
    return;
  }
  const here = currentAppPath();
  if (here === AUTH_STATE_CHECKER_PATH || here.startsWith(`${AUTH_STATE_CHECKER_PATH}?`)) return;
  navigateApp(authStateCheckerPath(here));
}

export const sessionKeys = {
  all: ['session'] as const,
  whoami: () => [...sessionKeys.all, 'whoami'] as const,
};

/**
 * The session check of protected pages (spec 002 §8): 401 means sign in again (in hosted mode through
 * /auth-state-checker), 403 or 422 mean a second factor is needed; anything else is an error the page shows.
 */
export async function fetchSession(signal?: AbortSignal): Promise<Session> {
  const response = await fetch('/api/auth/sessions/whoami', {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const body = await readBody(response);
  if (response.ok) return body as Session;
  if (response.status === 401) redirectSignedOut(response);
  else if (response.status === 403 || response.status === 422) redirectToLogin('second-factor');
  throw new ApiError(response.status, body);
}

/** The display name of the signed-in user, falling back to identity traits when the person has none. */
export function sessionDisplayName(session: Session): string {
  if (session.person.name.trim() !== '') return session.person.name;
  const name = session.identity.traits.name;
  const full = [name?.first, name?.last].filter((part) => part !== undefined && part !== '').join(' ');
  return full !== '' ? full : (session.identity.traits.email ?? session.person.email ?? 'there');
}

/**
 * Roles are asked again by a component mounting more than this long after the last answer, so a page's many
 * permission checks share one whoami instead of queueing a request each in front of the page's data.
 */
export const SESSION_FRESH_MS = 5_000;

/** The signed-in user, asked again on mount once older than SESSION_FRESH_MS and when the window regains focus. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.whoami(),
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: SESSION_FRESH_MS,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    retry: false,
  });
}
