import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogChangesResponseSchema, type CatalogChangesRequest, type CatalogChangesResponse } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { catalogChangesKeys } from './keys';

/**
 * One page of changes, filtered, folded and counted by the server. The page is always read now; its total and counts
 * may be kept ones up to 5 minutes old (ADR 0053), and `fresh` asks for them counted now.
 */
export async function getCatalogChanges(body: Partial<CatalogChangesRequest>, signal?: AbortSignal, fresh = false): Promise<CatalogChangesResponse> {
  const headers = fresh ? { 'Cache-Control': 'no-cache' } : undefined;
  // The page shows a failure in place of the table, so a toast would say it twice.
  const response = await requestJson<unknown>('/api/catalog/changes', { method: 'POST', json: body, signal, silent: true, headers });
  return catalogChangesResponseSchema.parse(response);
}

export function useCatalogChangesQuery(body: Partial<CatalogChangesRequest>) {
  return useQuery({
    queryKey: catalogChangesKeys.list(body),
    queryFn: ({ signal }) => getCatalogChanges(body, signal),
    placeholderData: keepPreviousData,
  });
}

/** The Refresh button's call: the page and counts that reflect every write so far, replacing the shown ones. */
export function useRefreshCatalogChanges(body: Partial<CatalogChangesRequest>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => getCatalogChanges(body, undefined, true),
    onSuccess: (reply) => queryClient.setQueryData(catalogChangesKeys.list(body), reply),
  });
}
