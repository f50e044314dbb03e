import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { currentAppPath, loginPath } from '@/lib/app-navigator';
import { createLogoutFlow, performLogout } from './api/logout';

export interface Logout {
  signOut(): Promise<void>;
  isSigningOut: boolean;
}

export function useLogout(): Logout {
  const queryClient = useQueryClient();
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
    // Nothing the previous user loaded may survive: not in memory (a page restored from the back-forward cache still
    // holds this client), and not in history, so Back cannot return to the signed-in screen.
    queryClient.clear();
    window.location.replace(loginPath(returnTo));
  }, [queryClient]);
  return { signOut, isSigningOut };
}
