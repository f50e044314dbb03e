import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@opsdeck/shared';
import { TEXT_SEARCH_MAX_LENGTH } from '@/lib/api/text-search';
import { USER_SORT_FIELDS, type UserListQuery, type UserSortField } from './api/get-users';

/** The URL parameters of the Users screen. */
export const USER_LIST_PARAMS = { search: 'search', sortBy: 'sortBy', sortOrder: 'sortOrder', page: 'page', pageSize: 'pageSize' } as const;

/** The page sizes every paged table offers (spec 000 §9), 50 by default. */
export const USER_PAGE_SIZES: readonly number[] = PAGE_SIZE_OPTIONS;

function isUserSortField(value: string | null): value is UserSortField {
  return value !== null && (USER_SORT_FIELDS as readonly string[]).includes(value);
}

/**
 * The list state from the URL: search (name or e-mail, trimmed), sortBy (a column id: name, email, state or created_at; default
 * name), sortOrder (asc or desc; default asc), page (from 1) and pageSize (one of the page sizes). Values the list does
 * not know fall back to the defaults.
 */
export function parseUserListParams(search: URLSearchParams): UserListQuery {
  const sortBy = search.get(USER_LIST_PARAMS.sortBy);
  const pageSize = Number(search.get(USER_LIST_PARAMS.pageSize));
  const page = Math.trunc(Number(search.get(USER_LIST_PARAMS.page) ?? '1'));
  return {
    search: [...(search.get(USER_LIST_PARAMS.search) ?? '')].slice(0, TEXT_SEARCH_MAX_LENGTH).join('').trim(),
    sortBy: isUserSortField(sortBy) ? sortBy : 'name',
    sortDesc: search.get(USER_LIST_PARAMS.sortOrder) === 'desc',
    pageIndex: Number.isFinite(page) && page > 1 ? page - 1 : 0,
    pageSize: USER_PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}
