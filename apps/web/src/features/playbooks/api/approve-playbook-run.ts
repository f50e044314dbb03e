import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaybookRun } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export interface ApprovePlaybookRunInput {
  playbookId: string;
  runId: string;
}

/**
 * POST /api/playbook/run/approve/{playbook_id}/{run_id}: the server decides whether the caller is a listed approver
 * (403 OD_PLAYBOOK_NOT_APPROVER otherwise) and answers the run as it is after the approval.
 */
export async function approvePlaybookRun({ playbookId, runId }: ApprovePlaybookRunInput): Promise<PlaybookRun> {
  return requestJson<PlaybookRun>(`/api/playbook/run/approve/${encodeURIComponent(playbookId)}/${encodeURIComponent(runId)}`, { method: 'POST', silent: true });
}

export function useApprovePlaybookRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approvePlaybookRun,
    onSuccess: (run) => {
      queryClient.setQueryData(playbookKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
      toastSuccess('Playbook run approved');
    },
    onError: toastError,
  });
}
