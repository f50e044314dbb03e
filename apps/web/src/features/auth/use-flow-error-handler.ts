import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api/api-error';
import { TOAST_DURATION_MS } from '@opsdeck/shared';
import { showErrorToast } from '@/lib/api/guarded-fetch';
import { loginPath, toSafeReturnPath } from '@/lib/app-navigator';
import { flowErrorId, flowRedirect } from './api/auth-request';

export interface FlowErrorActions {
  /** Throw away the held flow and start a new one. */
  restart(options?: { dropReturnTo?: boolean }): void;
  /**
   * The page's own address, with its flow id, that a sign-in asked for by the identity service (no session, a second
   * factor, a re-authentication) comes back to. Without it a missing session restarts the flow: the sign-in page.
   */
  currentPath?: () => string;
  /** Replaces the answer to a missing session, for a page where neither of the above fits (the second sign-in step). */
  onSessionInactive?: () => void;
}

/** Adds return_to to a sign-in address the identity service named, unless it already says where to go back to. */
function withReturnTo(target: string, returnTo: string | undefined): string {
  if (returnTo === undefined) return target;
  const url = new URL(target, window.location.origin);
  if (url.searchParams.has('return_to')) return target;
  url.searchParams.set('return_to', returnTo);
  const sameOrigin = url.origin === window.location.origin;
  return sameOrigin ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

/**
 * The identity error ids of spec 002 §8, mapped to what the page does. Returns false for errors it does not know,
 * which the caller reports.
 */
export function useFlowErrorHandler({ restart, currentPath, onSessionInactive }: FlowErrorActions): (error: unknown) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      // In-app addresses go through the router; another origin (an allowed return_to, a provider) is a page load.
      const go = (target: string) => {
        const path = toSafeReturnPath(target);
        if (path !== null) navigate(path);
        else window.location.assign(target);
      };
      const id = flowErrorId(error);
      const redirect = flowRedirect(error);
      const here = currentPath?.();
      switch (id) {
        case 'session_already_available':
          navigate('/', { replace: true });
          return true;
        case 'session_inactive':
          if (onSessionInactive !== undefined) onSessionInactive();
          else if (here === undefined) restart();
          else navigate(loginPath(here), { replace: true });
          return true;
        case 'session_aal2_required':
          go(withReturnTo(redirect ?? '/login?aal=aal2', here));
          return true;
        case 'session_refresh_required':
          go(withReturnTo(redirect ?? '/login?refresh=true', here));
          return true;
        case 'browser_location_change_required':
          if (redirect !== null) {
            go(redirect);
            return true;
          }
          return false;
        case 'self_service_flow_return_to_forbidden':
          toast.error('The return_to address is not allowed.', { duration: TOAST_DURATION_MS });
          restart({ dropReturnTo: true });
          return true;
        case 'self_service_flow_expired':
          toast.error('Your interaction expired, please fill out the form again.', { duration: TOAST_DURATION_MS });
          restart();
          return true;
        case 'security_csrf_violation':
          toast.error('A security violation was detected, please fill out the form again.', { duration: TOAST_DURATION_MS });
          restart();
          return true;
        case 'security_identity_mismatch':
          restart();
          return true;
      }
      if (error instanceof ApiError && error.status === 410) {
        restart();
        return true;
      }
      return false;
    },
    [navigate, restart, currentPath, onSessionInactive],
  );
}

/** Reports an error no rule handled as a toast with the server's message. */
export function reportFlowError(error: unknown): void {
  showErrorToast(error instanceof Error && error.message !== '' ? error.message : 'Something went wrong');
}
