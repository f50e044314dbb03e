import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { agentUrl } from './get-agent';
import { agentsKeys } from './keys';

export interface DeleteAgentVariables {
  id: string;
  /** Also soft-delete the checks, canaries, config items and scrapers the agent created. */
  cleanup: boolean;
}

export interface DeletedAgent {
  id: string;
  cleanup: boolean;
  deleted: { checks: number; canaries: number; config_items: number; config_scrapers: number };
}

export async function deleteAgent({ id, cleanup }: DeleteAgentVariables): Promise<DeletedAgent> {
  return requestJson<DeletedAgent>(`${agentUrl(id)}?cleanup=${String(cleanup)}`, { method: 'DELETE', silent: true });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: async (deleted) => {
      toastSuccess('Agent deleted');
      queryClient.removeQueries({ queryKey: agentsKeys.detail(deleted.id) });
      // Cleanup removes checks and configs too: every cached view of them is stale, not only the agents list.
      await queryClient.invalidateQueries(deleted.cleanup ? undefined : { queryKey: agentsKeys.lists() });
    },
    onError: toastError,
  });
}
