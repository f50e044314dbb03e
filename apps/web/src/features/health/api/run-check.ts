import { useMutation } from '@tanstack/react-query';
import { toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';

export const RUN_CHECK_SUCCESS = 'You have successfully initiated the check run.';

export async function runCheck(checkId: string): Promise<void> {
  await requestJson<unknown>(`/api/canary/run/check/${encodeURIComponent(checkId)}`, { method: 'POST', silent: true });
}

/** Run Now. A failure is only logged (spec 001 §8): the next scheduled run still happens. */
export function useRunCheckMutation(onStarted: (startedAt: Date) => void) {
  return useMutation({
    mutationFn: async (checkId: string) => {
      const startedAt = new Date();
      await runCheck(checkId);
      return startedAt;
    },
    onSuccess: (startedAt) => {
      toastSuccess(RUN_CHECK_SUCCESS);
      onStarted(startedAt);
    },
    onError: (error) => console.error('Run check failed', error),
  });
}
