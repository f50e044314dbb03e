import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '@/lib/api/api-error';
import { authModeKey, fetchAuthMode } from '@/lib/auth/auth-mode';
import { isHostedSession, useSession } from '@/lib/auth/session';
import { needsChoice, useOrganizations } from './api/organizations';
import { CenteredScreen, Waiting } from './components/centered-screen';
import { OrganizationPickerScreen } from './components/organization-picker';
import { ProvisioningScreen } from './components/provisioning-screen';

/** A session check that failed this way means, in hosted mode, that the instance is still being set up (spec 001 §8). */
function looksLikeProvisioning(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status >= 500);
}

/**
 * The waiting screens of hosted mode in front of the shell (spec 001 §2.1): provisioning while the session check
 * answers 404 or 5xx, and the organization picker while a person with several organizations has chosen none. It asks
 * the server nothing more in the ordinary case: the mode only when the session check failed that way, and the
 * organizations only for a session that came from the provider.
 */
export function HostedModeGate({ children }: { children: ReactNode }) {
  const location = useLocation();
  const session = useSession();
  const provisioningSuspected = session.isError && looksLikeProvisioning(session.error);
  const mode = useQuery({
    queryKey: authModeKey,
    queryFn: ({ signal }) => fetchAuthMode(signal),
    staleTime: Infinity,
    retry: 1,
    enabled: provisioningSuspected,
  });
  const hostedSession = session.data !== undefined && isHostedSession(session.data);
  const organizations = useOrganizations(hostedSession);

  if (provisioningSuspected) {
    if (mode.isPending) return <Waiting>Loading…</Waiting>;
    // Anywhere else a failed session check is the error page's business, which the shell raises.
    if (mode.data?.mode === 'hosted') return <ProvisioningScreen />;
  }
  if (hostedSession) {
    if (organizations.isPending) {
      return (
        <CenteredScreen heading="Signing in">
          <Waiting>Loading your organizations…</Waiting>
        </CenteredScreen>
      );
    }
    if (organizations.data !== undefined && needsChoice(organizations.data)) {
      return <OrganizationPickerScreen organizations={organizations.data.organizations} returnTo={`${location.pathname}${location.search}`} />;
    }
  }
  return children;
}
