import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import type { DemoInbox } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { notificationsKeys } from './keys';

/** New messages show up on their own: the page is where a newcomer watches a delivery arrive. */
export const DEMO_INBOX_REFRESH_MS = 5_000;

export function getDemoInbox(signal?: AbortSignal): Promise<DemoInbox> {
  return requestJson<DemoInbox>('/api/demo-inbox', { silent: true, ...(signal === undefined ? {} : { signal }) });
}

export function useDemoInboxQuery(options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: notificationsKeys.demoInbox(),
    queryFn: ({ signal }) => getDemoInbox(signal),
    refetchInterval: options.poll === true ? DEMO_INBOX_REFRESH_MS : false,
  });
}

export function useClearDemoInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestJson<{ deleted: number }>('/api/demo-inbox', { method: 'DELETE', silent: true }),
    onSuccess: async (answer) => {
      toastSuccess(`Emptied the demo inbox (${answer.deleted} ${answer.deleted === 1 ? 'message' : 'messages'})`);
      await queryClient.invalidateQueries({ queryKey: notificationsKeys.demoInbox() });
    },
    onError: toastError,
  });
}
