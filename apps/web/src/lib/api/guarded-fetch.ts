import { toast } from 'sonner';
import { TOAST_DURATION_MS } from '@opsdeck/shared';
import { redirectToLogin } from '@/lib/app-navigator';
import { messageFromBody, readBody } from './api-error';

export interface GuardOptions {
  /** Skip the error toast; the caller shows the failure itself. */
  silent?: boolean;
}

export function showErrorToast(message: string): void {
  // The message doubles as the id so a burst of identical failures shows one toast, not a stack.
  toast.error(message, { id: message, duration: TOAST_DURATION_MS });
}

async function failureMessage(response: Response): Promise<string> {
  try {
    return messageFromBody(await readBody(response.clone())) ?? `Request failed (${response.status} ${response.statusText})`.trim();
  } catch {
    return `Request failed (${response.status})`;
  }
}

/**
 * The server refuses cookie-authenticated writes that are neither JSON nor marked with this header, which a page on
 * another origin cannot add without a CORS preflight; every API call carries it so bodiless writes pass too.
 */
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_HEADER_VALUE = 'XMLHttpRequest';

function withCsrfHeader(input: RequestInfo | URL, init: RequestInit | undefined): Headers {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set(CSRF_HEADER, CSRF_HEADER_VALUE);
  return headers;
}

/**
 * A `fetch` for Opsdeck's API: a 401 sends the user to sign in with a way back, any other failure shows the
 * server's message as a toast. The response is returned untouched so clients such as postgrest-js still parse it.
 */
export function createGuardedFetch(options: GuardOptions = {}): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, { credentials: 'same-origin', ...init, headers: withCsrfHeader(input, init) });
    } catch (error) {
      if (!options.silent && !(error instanceof DOMException && error.name === 'AbortError')) {
        showErrorToast('The server could not be reached. Check your connection and try again.');
      }
      throw error;
    }
    if (response.ok) return response;
    if (response.status === 401) {
      redirectToLogin();
      return response;
    }
    if (!options.silent) showErrorToast(await failureMessage(response));
    return response;
  };
}

export const guardedFetch = createGuardedFetch();
export const silentFetch = createGuardedFetch({ silent: true });
