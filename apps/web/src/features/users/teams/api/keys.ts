import { settingsResourceKeys } from '@/lib/settings-resources/api/keys';

/** Under the settings resource keys, so invalidating every settings query also refreshes a team's members. */
export const teamKeys = {
  members: (teamId: string) => [...settingsResourceKeys.all, 'team-members', teamId] as const,
  candidates: () => [...settingsResourceKeys.all, 'team-candidates'] as const,
};
