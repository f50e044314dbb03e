import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { API_TOKENS_URL, type ApiToken } from './get-api-tokens';
import { apiTokenKeys } from './keys';

/** The profile page's expiry choices, in days; the server takes any whole number up to 365. */
export const EXPIRY_CHOICES = [7, 30, 90, 365] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

export interface NewApiToken {
  name: string;
  role: Role;
  expiresInDays: ExpiryChoice;
}

/** The answer of a creation: the listed fields plus the token, shown once and never again. */
export type CreatedApiToken = ApiToken & { token: string };

export function createApiToken(input: NewApiToken): Promise<CreatedApiToken> {
  return requestJson<CreatedApiToken>(API_TOKENS_URL, { method: 'POST', json: input, silent: true });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
