import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { connectionRefsKeys } from '@/lib/api/connection-refs';
import { connectionsKeys, invalidateConnectionLists } from './keys';

describe('invalidateConnectionLists', () => {
  it('marks both the Connections table and the health-check forms’ connection suggestions as stale', async () => {
    const queryClient = new QueryClient();
    const table = connectionsKeys.list({ pageIndex: 0, pageSize: 50 });
    const suggestions = connectionRefsKeys.ofType('http');
    const unrelated = ['people', 'by-id', []] as const;
    queryClient.setQueryData(table, { data: [], total: 0 });
    queryClient.setQueryData(suggestions, ['connection://default/shop']);
    queryClient.setQueryData(unrelated, []);
    await invalidateConnectionLists(queryClient);
    expect(queryClient.getQueryState(table)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(suggestions)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(unrelated)?.isInvalidated).toBe(false);
  });
});
