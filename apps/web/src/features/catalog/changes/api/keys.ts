import type { CatalogChangesRequest } from '@opsdeck/shared';

export const catalogChangesKeys = {
  all: ['catalog', 'changes'] as const,
  list: (body: Partial<CatalogChangesRequest>) => [...catalogChangesKeys.all, 'list', body] as const,
  detail: (id: string) => [...catalogChangesKeys.all, 'detail', id] as const,
  options: (name: string) => [...catalogChangesKeys.all, 'options', name] as const,
};
