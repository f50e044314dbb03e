import { describe, expect, it } from 'vitest';
import { parseIntegrationListParams, serializeIntegrationListParams } from './integration-list-params';

describe('integration list parameters', () => {
  it('reads the page from 1 and an offered page size from the URL', () => {
    expect(parseIntegrationListParams(new URLSearchParams('page=3&pageSize=100'))).toEqual({ pageIndex: 2, pageSize: 100 });
  });

  it('falls back to the first page of 50 for values it does not know', () => {
    expect(parseIntegrationListParams(new URLSearchParams('page=-2&pageSize=7'))).toEqual({ pageIndex: 0, pageSize: 50 });
    expect(parseIntegrationListParams(new URLSearchParams('page=abc'))).toEqual({ pageIndex: 0, pageSize: 50 });
  });

  it('writes only what differs from the defaults', () => {
    expect(serializeIntegrationListParams({ pageIndex: 0, pageSize: 50 }).toString()).toBe('');
    expect(serializeIntegrationListParams({ pageIndex: 1, pageSize: 25 }).toString()).toBe('page=2&pageSize=25');
  });
});
