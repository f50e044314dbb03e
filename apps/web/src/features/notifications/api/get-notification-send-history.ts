import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { notificationsKeys } from './keys';
import type { NotificationSendHistoryRow } from './types';

/** How many deliveries the history shows; older ones stay in the database, counted in the summary. */
export const SEND_HISTORY_LIMIT = 100;

const SEND_HISTORY_SELECT =
  'id,notification_id,status,source_event,resource_id,person_id,recipient,body,error,reason,duration_millis,attempts,created_at,person:people!notification_send_history_person_id_fkey(id,name,avatar)';

export async function getNotificationSendHistory(notificationId: string, signal?: AbortSignal): Promise<NotificationSendHistoryRow[]> {
  const query = silentDb
    .from('notification_send_history')
    .select(SEND_HISTORY_SELECT)
    .eq('notification_id', notificationId)
    .order('created_at', { ascending: false })
    .limit(SEND_HISTORY_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useNotificationSendHistoryQuery(notificationId: string) {
  return useQuery({
    queryKey: notificationsKeys.history(notificationId),
    queryFn: ({ signal }) => getNotificationSendHistory(notificationId, signal),
  });
}
