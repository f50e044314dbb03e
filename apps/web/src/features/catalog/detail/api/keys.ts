import { catalogKeys } from '../../api/keys';

/** Under the catalog's root key, so a catalog-wide invalidation refreshes an open config page too. */
export const configDetailKeys = {
  all: [...catalogKeys.all, 'detail'] as const,
  detail: (id: string) => [...configDetailKeys.all, id] as const,
  checks: (id: string) => [...configDetailKeys.all, id, 'checks'] as const,
  logs: (id: string) => [...configDetailKeys.all, id, 'logs'] as const,
  playbookRuns: (id: string, page: number, pageSize: number) => [...configDetailKeys.all, id, 'playbook-runs', page, pageSize] as const,
};
