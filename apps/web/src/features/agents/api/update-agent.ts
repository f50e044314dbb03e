import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { agentUrl } from './get-agent';
import { agentsKeys } from './keys';
import type { AgentDetail, AgentUpdateInput } from './types';

export interface UpdateAgentVariables {
  id: string;
  input: AgentUpdateInput;
}

export async function updateAgent({ id, input }: UpdateAgentVariables): Promise<AgentDetail> {
  return requestJson<AgentDetail>(agentUrl(id), { method: 'PATCH', json: input, silent: true });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    onSuccess: async (agent) => {
      toastSuccess('Agent updated');
      queryClient.setQueryData(agentsKeys.detail(agent.id), agent);
      await queryClient.invalidateQueries({ queryKey: agentsKeys.lists() });
    },
    onError: toastError,
  });
}
