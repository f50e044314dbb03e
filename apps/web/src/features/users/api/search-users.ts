import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { UserSummary } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { textSearchFilter } from '@/lib/api/text-search';
import { USER_SEARCH_COLUMNS } from './get-users';
import { usersKeys } from './keys';

/** A user as the role picker offers them. */
export type UserChoice = Pick<UserSummary, 'id' | 'name' | 'email'>;

/** The most users one search returns; typing more narrows it. */
export const USER_PICKER_LIMIT = 50;

/** The first users, by name, whose name or e-mail contains the text: what the 'Update User Role' picker offers. */
export async function searchUsers(text: string, signal?: AbortSignal): Promise<UserChoice[]> {
  const filter = textSearchFilter(USER_SEARCH_COLUMNS, text);
  const select = silentDb.from('identities_summary').select('id,name,email');
  const request = (filter === null ? select : select.or(filter))
    .order('name', { ascending: true })
    .order('id', { ascending: true })
    .limit(USER_PICKER_LIMIT);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

/** Asked only once something is typed (the caller debounces it); the last answer stays while the next one loads. */
export function useUserSearchQuery(text: string) {
  return useQuery({
    queryKey: usersKeys.search(text),
    queryFn: ({ signal }) => searchUsers(text, signal),
    enabled: text !== '',
    placeholderData: keepPreviousData,
  });
}
