import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaybookRunRequest, PlaybookRunResponse } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

/** Requests a run (spec 001 §7 "POST run"); the server answers the new run's id. */
export async function runPlaybook(request: PlaybookRunRequest): Promise<PlaybookRunResponse> {
  return requestJson<PlaybookRunResponse>('/api/playbook/run', { method: 'POST', json: request, silent: true });
}

export function useRunPlaybookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runPlaybook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbookKeys.all }),
  });
}
