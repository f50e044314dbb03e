import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogChangesResponseSchema, type CatalogChangesRequest, type CatalogChangesResponse } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { catalogChangesKeys } from './keys';

/** One page of changes, filtered, folded and counted by the server. */
export async function getCatalogChanges(body: Partial<CatalogChangesRequest>, signal?: AbortSignal): Promise<CatalogChangesResponse> {
  // The page shows a failure in place of the table, so a toast would say it twice.
  const response = await requestJson<unknown>('/api/catalog/changes', { method: 'POST', json: body, signal, silent: true });
  return catalogChangesResponseSchema.parse(response);
}

export function useCatalogChangesQuery(body: Partial<CatalogChangesRequest>) {
  return useQuery({
    queryKey: catalogChangesKeys.list(body),
    queryFn: ({ signal }) => getCatalogChanges(body, signal),
    placeholderData: keepPreviousData,
  });
}
