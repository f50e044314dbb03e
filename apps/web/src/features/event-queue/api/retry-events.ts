import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { eventQueueKeys } from './keys';

export interface RetryEventsInput {
  name: string;
  consumer: string | null;
}

/** Makes the failed events of one name (and consumer) run again. */
export async function retryEvents(input: RetryEventsInput): Promise<{ retried: number }> {
  return requestJson<{ retried: number }>('/api/event-queue/retry', { method: 'POST', json: input, silent: true });
}

export function useRetryEvents() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryEvents,
    onSuccess: async (result, input) => {
      toastSuccess(`${result.retried} ${input.name} ${result.retried === 1 ? 'event' : 'events'} queued for retry`);
      await queryClient.invalidateQueries({ queryKey: eventQueueKeys.all });
    },
    onError: toastError,
  });
}
