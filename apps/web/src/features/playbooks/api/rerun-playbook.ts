import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaybookRun, PlaybookRunRequest, PlaybookRunResponse } from '@opsdeck/shared';
import { toastError } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export type RerunSource = Pick<PlaybookRun, 'playbook_id' | 'config_id' | 'component_id' | 'check_id' | 'parameters'>;

/** The run request that repeats `run`: the same playbook, target and parameters. */
export function rerunRequest(run: RerunSource): PlaybookRunRequest {
  const request: PlaybookRunRequest = { id: run.playbook_id, params: { ...run.parameters } };
  if (run.config_id !== null) request.config_id = run.config_id;
  if (run.component_id !== null) request.component_id = run.component_id;
  if (run.check_id !== null) request.check_id = run.check_id;
  return request;
}

/** POST /api/playbook/run with the run's own request; the server checks target and parameters again. */
export async function rerunPlaybook(run: RerunSource): Promise<PlaybookRunResponse> {
  return requestJson<PlaybookRunResponse>('/api/playbook/run', { method: 'POST', json: rerunRequest(run), silent: true });
}

export function useRerunPlaybook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rerunPlaybook,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [...playbookKeys.all, 'runs'] }),
    // Spec 001 §8: a run that fails to start toasts the server's message.
    onError: toastError,
  });
}
