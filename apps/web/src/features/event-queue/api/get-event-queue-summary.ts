import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { eventQueueKeys } from './keys';
import type { EventQueueSummaryRow } from './types';

/** Most recently failing first (spec 002 §7); names that never failed follow. */
export async function getEventQueueSummary(signal?: AbortSignal): Promise<EventQueueSummaryRow[]> {
  const query = db
    .from('event_queue_summary')
    .select('*')
    .order('last_failure', { ascending: false, nullsFirst: false })
    .order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useEventQueueSummaryQuery() {
  return useQuery({ queryKey: eventQueueKeys.summary(), queryFn: ({ signal }) => getEventQueueSummary(signal) });
}
