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

/** The signed-in user. Roles are never served from cache: every mount asks the server again. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.whoami(),
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    retry: false,
  });
}
