import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api/api-error';
import { TOAST_DURATION_MS } from '@opsdeck/shared';
import { showErrorToast } from '@/lib/api/guarded-fetch';
import { navigateBrowser } from '@/lib/app-navigator';
import { flowErrorId, flowRedirect } from './api/auth-request';

export interface FlowErrorActions {
  /** Throw away the held flow and start a new one. */
  restart(options?: { dropReturnTo?: boolean }): void;
}

/**
 * The identity error ids of spec 002 §8, mapped to what the page does. Returns false for errors it does not know,
 * which the caller reports.
 */
export function useFlowErrorHandler({ restart }: FlowErrorActions): (error: unknown) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      const id = flowErrorId(error);
      const redirect = flowRedirect(error);
      switch (id) {
        case 'session_already_available':
          navigate('/', { replace: true });
          return true;
        case 'session_inactive':
          restart();
          return true;
        case 'session_aal2_required':
          navigateBrowser(redirect ?? '/login?aal=aal2');
          return true;
        case 'session_refresh_required':
          navigateBrowser(redirect ?? '/login?refresh=true');
          return true;
        case 'browser_location_change_required':
          if (redirect !== null) {
            navigateBrowser(redirect);
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
    [navigate, restart],
  );
}

/** Reports an error no rule handled as a toast with the server's message. */
export function reportFlowError(error: unknown): void {
  showErrorToast(error instanceof Error && error.message !== '' ? error.message : 'Something went wrong');
}
