import type { TableRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { catalogChangesKeys } from './keys';

/** The content fields the changes list leaves out. */
export type ChangeContent = Pick<TableRow<'config_changes'>, 'id' | 'diff' | 'details' | 'patches'>;

/** One change's diff, details and patches, read only when its panel opens. */
export async function getChangeContent(id: string, signal?: AbortSignal): Promise<ChangeContent | null> {
  const query = db.from('config_changes').select('id,diff,details,patches').eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data[0] ?? null;
}

export function useChangeContentQuery(id: string) {
  return useQuery({
    queryKey: catalogChangesKeys.detail(id),
    queryFn: ({ signal }) => getChangeContent(id, signal),
  });
}
