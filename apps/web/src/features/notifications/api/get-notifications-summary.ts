import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { notificationsKeys } from './keys';
import type { NotificationSummaryRow } from './types';

/** The recipient and creator joins of spec 001 §7, named by foreign key since the view exposes people.id twice. */
export const NOTIFICATION_JOINS =
  'person:people!notifications_person_id_fkey(id,name,avatar),team:teams!notifications_team_id_fkey(id,name,icon),creator:people!notifications_created_by_fkey(id,name,avatar)';

/** Newest first (spec 001 §7); the view already leaves out deleted notifications. */
export async function getNotificationsSummary(signal?: AbortSignal): Promise<NotificationSummaryRow[]> {
  const query = silentDb.from('notifications_summary').select(`*,${NOTIFICATION_JOINS}`).order('created_at', { ascending: false });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<NotificationSummaryRow[], { merge: false }>();
  return data;
}

export function useNotificationsSummaryQuery() {
  return useQuery({ queryKey: notificationsKeys.lists(), queryFn: ({ signal }) => getNotificationsSummary(signal) });
}
