import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { CONNECTIONS_URL } from '@/lib/api/connection-refs';
import { invalidateConnectionLists } from './keys';
import type { Connection, ConnectionInput } from './types';

export async function createConnection(input: ConnectionInput): Promise<Connection> {
  return requestJson<Connection>(CONNECTIONS_URL, { method: 'POST', json: input, silent: true });
}

export function useCreateConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConnection,
    onSuccess: async () => {
      toastSuccess('Connection added successfully');
      await invalidateConnectionLists(queryClient);
    },
    onError: toastError,
  });
}
