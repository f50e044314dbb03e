import { settingsResourceKeys } from '@/lib/settings-resources/api/keys';

/** Under the settings resource keys, so invalidating every settings list also refreshes the integrations. */
export const integrationKeys = {
  all: [...settingsResourceKeys.all, 'integrations'] as const,
  list: (pageIndex: number, pageSize: number) => [...integrationKeys.all, 'list', { pageIndex, pageSize }] as const,
};
