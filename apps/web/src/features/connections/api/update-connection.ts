import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { CONNECTIONS_URL } from '@/lib/api/connection-refs';
import { invalidateConnectionLists } from './keys';
import type { Connection, ConnectionInput } from './types';

export interface UpdateConnectionInput {
  id: string;
  input: ConnectionInput;
}

export async function updateConnection({ id, input }: UpdateConnectionInput): Promise<Connection> {
  return requestJson<Connection>(`${CONNECTIONS_URL}/${encodeURIComponent(id)}`, { method: 'PATCH', json: input, silent: true });
}

export function useUpdateConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConnection,
    onSuccess: async () => {
      toastSuccess('Connection updated successfully');
      await invalidateConnectionLists(queryClient);
    },
    onError: toastError,
  });
}
