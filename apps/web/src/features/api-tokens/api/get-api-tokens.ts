import { useQuery } from '@tanstack/react-query';
import type { Role } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { apiTokenKeys } from './keys';

/** A personal API token as GET /api/auth/api-tokens lists it: never the token itself. */
export interface ApiToken {
  id: string;
  name: string;
  role: Role;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export const API_TOKENS_URL = '/api/auth/api-tokens';

export async function getApiTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  const body = await requestJson<{ items: ApiToken[] }>(API_TOKENS_URL, { signal, silent: true });
  return body.items;
}

export function useApiTokensQuery() {
  return useQuery({ queryKey: apiTokenKeys.list(), queryFn: ({ signal }) => getApiTokens(signal) });
}
