import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATALOG_STALE_TIME_MS, type CatalogSummaryRequest, type CatalogSummaryRow } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { catalogKeys } from './keys';

/**
 * Groups, counts, filters and sorts in the database (POST /api/catalog/summary, ADR 0052). The server may answer from
 * an answer up to 5 minutes old (ADR 0053); `fresh` asks it to compute one now.
 */
export function getCatalogSummary(request: CatalogSummaryRequest, signal?: AbortSignal, fresh = false): Promise<CatalogSummaryRow[]> {
  const headers = fresh ? { 'Cache-Control': 'no-cache' } : undefined;
  return requestJson<CatalogSummaryRow[]>('/api/catalog/summary', { method: 'POST', json: request, signal, headers });
}

export function useCatalogSummaryQuery(request: CatalogSummaryRequest) {
  return useQuery({
    queryKey: catalogKeys.summary(request),
    queryFn: ({ signal }) => getCatalogSummary(request, signal),
    placeholderData: keepPreviousData,
    staleTime: CATALOG_STALE_TIME_MS,
  });
}

/** The Refresh button's call: a summary that reflects every write so far, replacing the shown one. */
export function useRefreshCatalogSummary(request: CatalogSummaryRequest) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => getCatalogSummary(request, undefined, true),
    onSuccess: (rows) => queryClient.setQueryData(catalogKeys.summary(request), rows),
  });
}
