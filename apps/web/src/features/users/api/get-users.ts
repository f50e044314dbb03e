import { useQuery } from '@tanstack/react-query';
import type { UserSummary } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { usersKeys } from './keys';

/**
 * The Users screen's rows (spec 002 §7 'GET /identities'): the identities_summary view adds the person's name and
 * roles to each identity, under the same identities read permission.
 */
export async function getUsers(signal?: AbortSignal): Promise<UserSummary[]> {
  const query = db.from('identities_summary').select('id,name,email,avatar,roles,state,created_at,updated_at').order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const users: UserSummary[] = data;
  return users;
}

export function useUsersQuery() {
  return useQuery({ queryKey: usersKeys.list(), queryFn: ({ signal }) => getUsers(signal) });
}
