import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { PLAYBOOK_SELECT, type PlaybookRow } from './get-playbooks';
import { playbookKeys } from './keys';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One live playbook; null for an unknown, deleted or malformed id, which the page shows as not found. */
export async function getPlaybook(id: string, signal?: AbortSignal): Promise<PlaybookRow | null> {
  if (!UUID.test(id)) return null;
  const query = silentDb.from('playbooks').select(PLAYBOOK_SELECT).eq('id', id).is('deleted_at', null).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<PlaybookRow[], { merge: false }>();
  return data[0] ?? null;
}

export function usePlaybookQuery(id: string) {
  return useQuery({ queryKey: playbookKeys.detail(id), queryFn: ({ signal }) => getPlaybook(id, signal) });
}
