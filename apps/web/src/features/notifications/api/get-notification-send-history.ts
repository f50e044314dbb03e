import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { notificationsKeys } from './keys';
import type { NotificationSendHistoryRow } from './types';

/** How many deliveries the history shows; older ones stay in the database, counted in the summary. */
export const SEND_HISTORY_LIMIT = 100;

const SEND_HISTORY_SELECT =
  'id,notification_id,status,source_event,resource_id,person_id,recipient,body,error,reason,duration_millis,attempts,created_at,person:people!notification_send_history_person_id_fkey(id,name,avatar)';

/** The tables whose rows an event names, by the event's family (check.failed → checks). */
const NAMED_TABLES = { check: 'checks', config: 'config_items', component: 'components' } as const;
type NamedFamily = keyof typeof NAMED_TABLES;

function familyOf(event: string | null): NamedFamily | null {
  const family = event?.split('.')[0];
  return family === 'check' || family === 'config' || family === 'component' ? family : null;
}

/** The names of the resources the rows are about: one request per table, for the ids of that table alone. */
async function resourceNames(rows: ReadonlyArray<{ source_event: string | null; resource_id: string | null }>, signal?: AbortSignal): Promise<Map<string, string>> {
  const ids = new Map<NamedFamily, Set<string>>();
  for (const row of rows) {
    const family = familyOf(row.source_event);
    if (family === null || row.resource_id === null) continue;
    const set = ids.get(family) ?? new Set<string>();
    set.add(row.resource_id);
    ids.set(family, set);
  }
  const answers = await Promise.all(
    [...ids].map(async ([family, set]) => {
      const query = silentDb.from(NAMED_TABLES[family]).select('id,name').in('id', [...set]);
      const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
      return data;
    }),
  );
  return new Map(answers.flat().flatMap((row) => (row.name === null ? [] : [[row.id, row.name] as const])));
}

export async function getNotificationSendHistory(notificationId: string, signal?: AbortSignal): Promise<NotificationSendHistoryRow[]> {
  const query = silentDb
    .from('notification_send_history')
    .select(SEND_HISTORY_SELECT)
    .eq('notification_id', notificationId)
    .order('created_at', { ascending: false })
    .limit(SEND_HISTORY_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const names = await resourceNames(data, signal);
  return data.map((row) => ({ ...row, resource_name: row.resource_id === null ? null : (names.get(row.resource_id) ?? null) }));
}

export function useNotificationSendHistoryQuery(notificationId: string) {
  return useQuery({
    queryKey: notificationsKeys.history(notificationId),
    queryFn: ({ signal }) => getNotificationSendHistory(notificationId, signal),
  });
}
