import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { NOTIFICATION_JOINS } from './get-notifications-summary';
import { notificationsKeys } from './keys';
import type { Notification } from './types';

export async function getNotification(id: string, signal?: AbortSignal): Promise<Notification> {
  const query = silentDb.from('notifications').select(`*,${NOTIFICATION_JOINS}`).eq('id', id).is('deleted_at', null);
  const { data } = await (signal ? query.abortSignal(signal) : query).single().throwOnError().overrideTypes<Notification, { merge: false }>();
  return data;
}

/** The editor reads the notification itself rather than its list row, so it edits what is stored now. */
export function useNotificationQuery(id: string | null) {
  return useQuery({
    queryKey: notificationsKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getNotification(id ?? '', signal),
    enabled: id !== null,
  });
}
