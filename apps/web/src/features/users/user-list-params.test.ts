import { describe, expect, it } from 'vitest';
import { parseUserListParams } from './user-list-params';

describe('parseUserListParams', () => {
  it('defaults to everyone, sorted by name ascending, first page of 50', () => {
    expect(parseUserListParams(new URLSearchParams())).toEqual({ search: '', sortBy: 'name', sortDesc: false, pageIndex: 0, pageSize: 50 });
  });

  it('reads the search, sort column, order, page and page size from the URL', () => {
    const params = parseUserListParams(new URLSearchParams('search=%20Ada%20&sortBy=created_at&sortOrder=desc&page=3&pageSize=100'));
    expect(params).toEqual({ search: 'Ada', sortBy: 'created_at', sortDesc: true, pageIndex: 2, pageSize: 100 });
  });

  it('falls back to the defaults for columns it cannot sort by, unknown page sizes and bad pages', () => {
    expect(parseUserListParams(new URLSearchParams('sortBy=roles&pageSize=7&page=-4'))).toEqual({
      search: '',
      sortBy: 'name',
      sortDesc: false,
      pageIndex: 0,
      pageSize: 50,
    });
    expect(parseUserListParams(new URLSearchParams('sortBy=constructor&page=abc')).sortBy).toBe('name');
  });

  it('cuts a very long search to 200 characters', () => {
    expect(parseUserListParams(new URLSearchParams(`search=${'x'.repeat(500)}`)).search).toHaveLength(200);
  });
});
