import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { AGENTS_URL } from './get-agent';
import { agentsKeys } from './keys';
import type { AgentCreateInput, CreatedAgent } from './types';

export async function createAgent(input: AgentCreateInput): Promise<CreatedAgent> {
  return requestJson<CreatedAgent>(AGENTS_URL, { method: 'POST', json: input, silent: true });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSuccess: async () => {
      toastSuccess('Agent created');
      await queryClient.invalidateQueries({ queryKey: agentsKeys.lists() });
    },
    onError: toastError,
  });
}
