import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryError } from '@/components/status/query-error';
import { loginPath, toSafeReturnPath } from '@/lib/app-navigator';
import { providerButtonClass, useProviderName } from '@/lib/auth/hosted/hosted-sign-in';
import { AUTH_STATE_CHECKER_PATH, browserLocation, providerSignInUrl } from '@/lib/auth/hosted/hosted-urls';
import { sessionKeys } from '@/lib/auth/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { checkSessionState } from '../api/session-state';
import { CenteredScreen, Waiting } from '../components/centered-screen';

const SENT_AT_KEY = 'opsdeck.auth-state-checker.sent-at';
/**
 * Coming back here this soon after being sent to the provider means the sign-in did not stick (cookies blocked, a
 * clock far off): the page then offers the provider's sign-in instead of sending the browser round in circles.
 */
const LOOP_WINDOW_MS = 30_000;

function sentRecently(): boolean {
  try {
    const sentAt = Number(window.sessionStorage.getItem(SENT_AT_KEY));
    return Number.isFinite(sentAt) && Date.now() - sentAt < LOOP_WINDOW_MS;
  } catch {
    return false;
  }
}

function rememberSent(at: number | null): void {
  try {
    if (at === null) window.sessionStorage.removeItem(SENT_AT_KEY);
    else window.sessionStorage.setItem(SENT_AT_KEY, String(at));
  } catch {
    // Without storage the loop guard is off; the redirect itself still works.
  }
}

/**
 * `/auth-state-checker`, where hosted mode sends a refused session check (spec 002 §8): it asks once more, then goes
 * back to return_to when the session is fine after all, or to the provider's sign-in when it is not.
 */
export function AuthStateCheckerPage() {
  useDocumentTitle('Signing in');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const provider = useProviderName();
  const asked = toSafeReturnPath(searchParams.get('return_to'));
  const returnTo = asked === null || asked.startsWith(AUTH_STATE_CHECKER_PATH) ? '/' : asked;
  const [loopSuspected] = useState(sentRecently);
  const state = useQuery({
    queryKey: ['auth', 'state-check', returnTo],
    queryFn: ({ signal }) => checkSessionState(signal),
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    switch (state.data) {
      case 'signed-in':
        rememberSent(null);
        void queryClient.invalidateQueries({ queryKey: sessionKeys.all });
        navigate(returnTo, { replace: true });
        break;
      case 'signed-out':
        navigate(loginPath(returnTo), { replace: true });
        break;
      case 'second-factor':
        navigate(loginPath(returnTo, 'second-factor'), { replace: true });
        break;
      case 'signed-out-hosted':
        if (loopSuspected) break;
        rememberSent(Date.now());
        browserLocation.assign(providerSignInUrl(returnTo));
        break;
      default:
        break;
    }
  }, [state.data, loopSuspected, navigate, queryClient, returnTo]);

  if (state.isError) {
    return (
      <CenteredScreen heading="Signing in">
        <QueryError subject="Your session" error={state.error} onRetry={() => void state.refetch()} />
      </CenteredScreen>
    );
  }
  if (state.data === 'signed-out-hosted' && loopSuspected) {
    return (
      <CenteredScreen heading="Signing in">
        <p className="mb-4 text-sm text-gray-600">
          {`Your session could not be confirmed after signing in at ${provider}. Check that this browser accepts cookies from this site, then try again.`}
        </p>
        <a href={providerSignInUrl(returnTo)} className={providerButtonClass}>
          {`Sign in with ${provider}`}
        </a>
      </CenteredScreen>
    );
  }
  return (
    <CenteredScreen heading="Signing in">
      <Waiting>{state.data === 'signed-out-hosted' ? `Taking you to ${provider}…` : 'Checking your session…'}</Waiting>
    </CenteredScreen>
  );
}
