import { useQuery } from '@tanstack/react-query';
import { ApiError, readBody } from '@/lib/api/api-error';
import { redirectToLogin } from '@/lib/app-navigator';

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
}

export const sessionKeys = {
  all: ['session'] as const,
  whoami: () => [...sessionKeys.all, 'whoami'] as const,
};

/**
 * The session check of protected pages (spec 002 §8): 401 means sign in again, 403 or 422 mean a second factor is
 * needed; anything else is an error the page shows.
 */
export async function fetchSession(signal?: AbortSignal): Promise<Session> {
  const response = await fetch('/api/auth/sessions/whoami', {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const body = await readBody(response);
  if (response.ok) return body as Session;
  if (response.status === 401) redirectToLogin('sign-in');
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
