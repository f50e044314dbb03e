import { loginPath } from '@/lib/app-navigator';

/** The header the server sends on every /api/auth answer in hosted mode (auth/oidc/oidc-plugin.ts). */
export const AUTH_MODE_HEADER = 'opsdeck-auth-mode';

/** The /login parameter naming why a provider sign-in was refused (auth/oidc/hosted-errors.ts). */
export const SIGN_IN_ERROR_PARAM = 'oidc_error';

export const AUTH_STATE_CHECKER_PATH = '/auth-state-checker';
export const ORGANIZATIONS_SWITCHED_PATH = '/organizations/orgs-switched';

export function answeredInHostedMode(response: Response): boolean {
  return response.headers.get(AUTH_MODE_HEADER) === 'hosted';
}

function withReturnTo(path: string, returnTo: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (returnTo !== null && returnTo !== '') query.set('return_to', returnTo);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The server route that starts a sign-in at the provider; a page load, not an API call, since it redirects away. */
export function providerSignInUrl(returnTo: string | null, options: { signUp?: boolean } = {}): string {
  return withReturnTo('/api/auth/oidc/login', returnTo, options.signUp === true ? { signup: 'true' } : {});
}

export function authStateCheckerPath(returnTo: string): string {
  return withReturnTo(AUTH_STATE_CHECKER_PATH, returnTo);
}

export function organizationsSwitchedPath(returnTo: string | null): string {
  return withReturnTo(ORGANIZATIONS_SWITCHED_PATH, returnTo);
}

/** Where a signed-out visitor goes: the provider in hosted mode, the sign-in page otherwise. */
export function signInDestination(hosted: boolean, returnTo: string): string {
  return hosted ? providerSignInUrl(returnTo) : loginPath(returnTo);
}

/**
 * Leaves the single-page app for a server route (the provider sign-in). Kept apart so tests can replace it: jsdom
 * cannot load another page.
 */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
