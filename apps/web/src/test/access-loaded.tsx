import { screen } from '@testing-library/react';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';

/*
 * A test that checks something is hidden must first know the inputs of that decision have arrived, or it passes
 * before the page has decided anything. These markers read the same cached queries as the components under test, so
 * they show in the same render that hides or shows the part in question.
 */

const ROLES_LOADED = 'Roles loaded';
const ROLES_AND_FLAGS_LOADED = 'Roles and feature flags loaded';

/** Shows once the session's roles have loaded; for pages that hide parts by role only (no feature-flag request). */
export function RolesLoaded() {
  return usePermissions().isReady ? <p>{ROLES_LOADED}</p> : null;
}

/** Shows once both the roles and the feature flags have loaded. */
export function RolesAndFlagsLoaded() {
  const { isReady } = usePermissions();
  const flags = useFeatureFlags();
  return isReady && !flags.isLoading ? <p>{ROLES_AND_FLAGS_LOADED}</p> : null;
}

export async function waitForRoles(): Promise<void> {
  await screen.findByText(ROLES_LOADED);
}

export async function waitForRolesAndFlags(): Promise<void> {
  await screen.findByText(ROLES_AND_FLAGS_LOADED);
}
