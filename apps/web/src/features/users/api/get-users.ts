import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { UserSummary } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { textSearchFilter } from '@/lib/api/text-search';
import { usersKeys } from './keys';

/** The columns the list sorts by, each a column of identities_summary. */
export const USER_SORT_FIELDS = ['name', 'email', 'state', 'created_at'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** The columns the search box looks in. */
export const USER_SEARCH_COLUMNS = ['name', 'email'] as const;

export interface UserListQuery {
  /** Name or e-mail containing this text, ignoring case; '' for everyone. */
  search: string;
  sortBy: UserSortField;
  sortDesc: boolean;
  pageIndex: number;
  pageSize: number;
}

export interface UserListPage {
  rows: UserSummary[];
  /** Every user matching the search, not only this page. */
  totalCount: number;
}

export const USER_LIST_SELECT = 'id,name,email,avatar,roles,state,invited,created_at,updated_at';

/** The data API's answer to an offset past the last row (416). */
const RANGE_NOT_SATISFIABLE = 'PGRST103';

function isRangeNotSatisfiable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === RANGE_NOT_SATISFIABLE;
}

function usersMatching(search: string) {
  const request = silentDb.from('identities_summary').select(USER_LIST_SELECT, { count: 'exact' });
  const filter = textSearchFilter(USER_SEARCH_COLUMNS, search);
  return filter === null ? request : request.or(filter);
}

/**
 * One page of the Users screen (spec 002 §2.2, §7 'GET /identities'): the identities_summary view adds the person's
 * name and roles to each identity. Searched, sorted, paged and counted by the server; the id breaks ties so pages never
 * overlap. A page past the end (the list shrank, or an old link) answers no rows with the real count, so the screen
 * can move to the last page.
 */
export async function getUsers(query: UserListQuery, signal?: AbortSignal): Promise<UserListPage> {
  const start = query.pageIndex * query.pageSize;
  const request = usersMatching(query.search)
    .order(query.sortBy, { ascending: !query.sortDesc, nullsFirst: false })
    .order('id', { ascending: true })
    .range(start, start + query.pageSize - 1);
  try {
    const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError();
    // A view's columns read as nullable; an account is invited only when the view says so.
    return { rows: data.map((row) => ({ ...row, invited: row.invited === true })), totalCount: count ?? data.length };
  } catch (error) {
    if (start === 0 || !isRangeNotSatisfiable(error)) throw error;
    const first = usersMatching(query.search).order('id', { ascending: true }).limit(1);
    const { count } = await (signal ? first.abortSignal(signal) : first).throwOnError();
    return { rows: [], totalCount: count ?? 0 };
  }
}

export function useUsersQuery(query: UserListQuery) {
  return useQuery({
    queryKey: usersKeys.list(query),
    queryFn: ({ signal }) => getUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}
