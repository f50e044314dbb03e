import { useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { incidentsKeys } from './keys';

export type SearchableKind = 'checks' | 'components' | 'configs';

export interface ResourceHit {
  id: string;
  name: string;
  icon?: string | null;
  type: string | null;
  status: string | null;
  health?: string | null;
  namespace?: string | null;
}

export type ResourceSearchResult = Record<SearchableKind, ResourceHit[]>;

/** POST /api/resources/search with one selector for the kind asked for. */
export async function searchResources(kind: SearchableKind, search: string, signal?: AbortSignal): Promise<ResourceHit[]> {
  const result = await requestJson<ResourceSearchResult>('/api/resources/search', { method: 'POST', json: { [kind]: [{ search }] }, signal });
  return result[kind];
}

export function useResourceSearchQuery(kind: SearchableKind | null, search: string) {
  return useQuery({
    queryKey: incidentsKeys.resourceSearch(kind ?? 'none', search),
    queryFn: ({ signal }) => searchResources(kind ?? 'configs', search, signal),
    enabled: kind !== null,
  });
}
