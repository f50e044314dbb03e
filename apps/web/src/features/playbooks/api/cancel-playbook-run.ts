import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaybookRun } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

/** POST /api/playbook/run/{id}/cancel: the run as it is once cancelled (400 OD_PLAYBOOK_RUN_FINISHED when already final). */
export async function cancelPlaybookRun(id: string): Promise<PlaybookRun> {
  return requestJson<PlaybookRun>(`/api/playbook/run/${encodeURIComponent(id)}/cancel`, { method: 'POST', silent: true });
}

export function useCancelPlaybookRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPlaybookRun,
    onSuccess: (run) => {
      queryClient.setQueryData(playbookKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
      toastSuccess('Playbook run cancelled');
    },
    onError: toastError,
  });
}
