/**
 * How code outside React (the guarded fetch, the session check) moves the user. The app plugs in its router so a
 * redirect to sign-in is a client-side navigation; until then the browser location is used.
 */
export interface AppNavigator {
  /** The current in-app path with its query string, used as the return target after sign-in. */
  currentPath(): string;
  navigate(to: string): void;
}

const browserNavigator: AppNavigator = {
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  navigate: (to) => window.location.assign(to),
};

let current: AppNavigator = browserNavigator;

/** Installs a navigator and returns a function that restores the previous one. */
export function setAppNavigator(navigator: AppNavigator): () => void {
  const previous = current;
  current = navigator;
  return () => {
    current = previous;
  };
}

export function currentAppPath(): string {
  return current.currentPath();
}

export function navigateApp(to: string): void {
  current.navigate(to);
}

/** Leaves the app for an address the identity service named, which may be on another origin. */
export function navigateBrowser(to: string): void {
  if (isSafeReturnPath(to)) navigateApp(to);
  else window.location.assign(to);
}

/** A same-origin absolute path: starts with one slash, never `//host` or `/\host`, which browsers treat as origins. */
export function isSafeReturnPath(value: string | null | undefined): value is string {
  if (value === null || value === undefined) return false;
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

/**
 * Turns a return target into a same-origin path. Absolute URLs on our own origin are accepted (the identity service
 * echoes `return_to` as a full URL); anything on another origin is refused.
 */
export function toSafeReturnPath(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (isSafeReturnPath(value)) return value;
  try {
    const url = new URL(value);
    if (url.origin !== window.location.origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

export type LoginReason = 'sign-in' | 'second-factor';

export function loginPath(returnTo: string, reason: LoginReason = 'sign-in'): string {
  const params = new URLSearchParams();
  if (reason === 'second-factor') params.set('aal', 'aal2');
  params.set('return_to', returnTo);
  return `/login?${params.toString()}`;
}

/** Sends the user to sign in and back to where they are; a no-op when they are already on the sign-in page. */
export function redirectToLogin(reason: LoginReason = 'sign-in'): void {
  const here = currentAppPath();
  if (here === '/login' || here.startsWith('/login?')) return;
  navigateApp(loginPath(here, reason));
}
