import { describe, expect, it } from 'vitest';
import { parseAgentListParams, sortFieldOf } from './agent-list-params';

describe('parseAgentListParams', () => {
  it('defaults to the first page of 50 sorted by name ascending', () => {
    expect(parseAgentListParams(new URLSearchParams())).toEqual({ column: 'name', desc: false, pageIndex: 0, pageSize: 50 });
  });

  it('reads the sort column, order, page and page size from the URL', () => {
    const params = parseAgentListParams(new URLSearchParams('sortBy=checks&sortOrder=desc&page=3&pageSize=200'));
    expect(params).toEqual({ column: 'checks', desc: true, pageIndex: 2, pageSize: 200 });
    expect(sortFieldOf(params.column)).toBe('checks_count');
    expect(sortFieldOf('status')).toBe('last_seen');
  });

  it('falls back to the defaults for unknown columns, page sizes outside 50/100/200 and bad pages', () => {
    const params = parseAgentListParams(new URLSearchParams('sortBy=access_token_hash&pageSize=25&page=-4'));
    expect(params).toEqual({ column: 'name', desc: false, pageIndex: 0, pageSize: 50 });
    expect(parseAgentListParams(new URLSearchParams('sortBy=constructor&page=abc')).column).toBe('name');
  });
});
