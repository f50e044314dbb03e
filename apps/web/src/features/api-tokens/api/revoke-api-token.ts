import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { API_TOKENS_URL } from './get-api-tokens';
import { apiTokenKeys } from './keys';

export async function revokeApiToken(id: string): Promise<void> {
  await requestJson<unknown>(`${API_TOKENS_URL}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => toastSuccess('API token revoked'),
    onError: (error) => toastError(error),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
