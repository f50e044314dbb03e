import { useQuery } from '@tanstack/react-query';
import type { PlaybookSpec, RowWith, TableRow } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { playbookKeys } from './keys';

/** A playbook as the playbooks page and the editor read it. */
export type PlaybookRow = RowWith<
  Pick<TableRow<'playbooks'>, 'id' | 'name' | 'title' | 'icon' | 'description' | 'category' | 'source' | 'spec' | 'created_at'>,
  { spec: PlaybookSpec }
>;

export const PLAYBOOK_SELECT = 'id,name,title,icon,description,category,source,spec,created_at';

/** The live playbooks, by title (spec 001 §7 "Playbook CRUD: list"). */
export async function getPlaybooks(signal?: AbortSignal): Promise<PlaybookRow[]> {
  const query = silentDb.from('playbooks').select(PLAYBOOK_SELECT).is('deleted_at', null).order('title', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<PlaybookRow[], { merge: false }>();
  return data;
}

export function usePlaybooksQuery() {
  return useQuery({ queryKey: playbookKeys.list(), queryFn: ({ signal }) => getPlaybooks(signal) });
}
