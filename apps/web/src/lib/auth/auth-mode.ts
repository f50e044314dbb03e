import { useQuery } from '@tanstack/react-query';
import { ApiError, readBody } from '@/lib/api/api-error';

/** GET /api/auth/mode: how people sign in to this console. */
export interface AuthMode {
  /** self-hosted: the built-in identity flows; hosted: an OpenID Connect provider. */
  mode: 'self-hosted' | 'hosted';
  provider_name?: string;
  registration_enabled: boolean;
}

export async function fetchAuthMode(signal?: AbortSignal): Promise<AuthMode> {
  const response = await fetch('/api/auth/mode', { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  return body as AuthMode;
}

export const authModeKey = ['auth', 'mode'] as const;

/** The deployment's sign-in mode; it only changes with a restart, so one answer serves the whole visit. */
export function useAuthMode() {
  return useQuery({ queryKey: authModeKey, queryFn: ({ signal }) => fetchAuthMode(signal), staleTime: Infinity, retry: 1 });
}

/** True once the mode is known to be hosted; while it loads the built-in service is assumed, as on most installs. */
export function useIsHostedMode(): boolean {
  return useAuthMode().data?.mode === 'hosted';
}
