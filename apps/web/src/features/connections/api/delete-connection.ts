import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { CONNECTIONS_URL } from '@/lib/api/connection-refs';
import { invalidateConnectionLists } from './keys';

export async function deleteConnection(id: string): Promise<void> {
  await requestJson<null>(`${CONNECTIONS_URL}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConnection,
    onSuccess: async () => {
      toastSuccess('Connection deleted successfully');
      await invalidateConnectionLists(queryClient);
    },
    onError: toastError,
  });
}
