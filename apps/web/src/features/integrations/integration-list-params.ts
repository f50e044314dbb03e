import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@opsdeck/shared';

export interface IntegrationListParams {
  pageIndex: number;
  pageSize: number;
}

/**
 * The paging from the URL: `page` (from 1) and `pageSize` (one the table's pager offers, 50 by default); anything else
 * is the default.
 */
export function parseIntegrationListParams(search: URLSearchParams): IntegrationListParams {
  const page = Math.trunc(Number(search.get('page') ?? '1'));
  const pageSize = Number(search.get('pageSize'));
  return {
    pageIndex: Number.isFinite(page) && page > 1 ? page - 1 : 0,
    pageSize: (PAGE_SIZE_OPTIONS as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** The URL's parameters for a paging state, leaving the defaults out so the plain list keeps a plain address. */
export function serializeIntegrationListParams({ pageIndex, pageSize }: IntegrationListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (pageIndex > 0) search.set('page', String(pageIndex + 1));
  if (pageSize !== DEFAULT_PAGE_SIZE) search.set('pageSize', String(pageSize));
  return search;
}
