import { useCallback, useState } from 'react';
import { currentAppPath, loginPath } from '@/lib/app-navigator';
import { createLogoutFlow, performLogout } from './api/logout';

export interface Logout {
  signOut(): Promise<void>;
  isSigningOut: boolean;
}

export function useLogout(): Logout {
  const [isSigningOut, setIsSigningOut] = useState(false);
  const signOut = useCallback(async () => {
    setIsSigningOut(true);
    const returnTo = currentAppPath();
    try {
      const flow = await createLogoutFlow();
      await performLogout(flow.logout_token);
    } catch {
      // Spec 002 §2.3: the user lands on sign-in even when ending the session failed.
    }
    // A full page load, so nothing the previous user loaded survives in memory.
    window.location.assign(loginPath(returnTo));
  }, []);
  return { signOut, isSigningOut };
}
