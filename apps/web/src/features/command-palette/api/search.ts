import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { commandPaletteKeys } from './keys';

/** The kinds GET /api/search returns (docs/search.md); settings pages and actions are added on the client. */
export type SearchResultKind = 'check' | 'config' | 'component' | 'incident' | 'playbook';

export interface SearchResult {
  kind: SearchResultKind;
  id: string;
  title: string;
  subtitle?: string;
  url: string;
}

export interface SearchAnswer {
  items: SearchResult[];
}

export const SEARCH_LIMIT = 20;
/** The server refuses longer texts (OD_SEARCH_QUERY); the input stops there. */
export const SEARCH_TEXT_MAX_LENGTH = 200;

/** One call of the server search; silent, since the palette shows its own error line instead of a toast. */
export async function searchEverything(text: string, limit: number, signal?: AbortSignal): Promise<SearchAnswer> {
  const query = new URLSearchParams({ q: text, limit: String(limit) });
  return requestJson<SearchAnswer>(`/api/search?${query.toString()}`, { signal, silent: true });
}

/**
 * The server's matches for `text` (already debounced by the caller); nothing is asked for a blank text. The previous
 * answer stays on screen while the next one loads, so the list does not flicker at every key.
 */
export function useSearchQuery(text: string, limit = SEARCH_LIMIT) {
  const trimmed = text.trim();
  return useQuery({
    queryKey: commandPaletteKeys.search(trimmed, limit),
    queryFn: ({ signal }) => searchEverything(trimmed, limit, signal),
    enabled: trimmed !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
