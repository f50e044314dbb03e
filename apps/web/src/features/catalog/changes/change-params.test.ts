import { describe, expect, it } from 'vitest';
import { MAPPED_TIME_RANGES } from '@opsdeck/shared';
import { changesRequestBody, parseChangesParams, parseTimeRange, readTristate, timeRangeParams, toMatchList, toTagSelector } from './change-params';

describe('change params', () => {
  it('turns the URL form of tags into a Kubernetes-style selector', () => {
    expect(toTagSelector('cluster____prod:1,namespace____kube-system:-1')).toBe('cluster=prod,namespace!=kube-system');
    expect(toTagSelector('no-separator:1')).toBe('');
  });

  it("keeps the '::' of config types when it writes a match list", () => {
    expect(toMatchList({ 'Kubernetes::Pod': 1, 'AWS::EC2::Instance': -1 })).toBe('Kubernetes::Pod,!AWS::EC2::Instance');
  });

  it('reads relative, quick and absolute ranges back from the URL they write', () => {
    const yesterday = MAPPED_TIME_RANGES[0];
    if (!yesterday) throw new Error('no quick ranges');
    for (const range of [{ type: 'relative', range: 'now-1w' } as const, yesterday, { type: 'absolute', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' } as const]) {
      const { from, to } = timeRangeParams(range);
      expect(parseTimeRange(from, to)).toEqual(range);
    }
    expect(parseTimeRange('not-a-time', null)).toEqual({ type: 'relative', range: 'now-2d' });
  });

  it('defaults to the last 2 days, page 1 of 200, newest first, and leaves empty filters out', () => {
    expect(changesRequestBody(parseChangesParams(new URLSearchParams()), true)).toEqual({
      from: 'now-2d',
      to: 'now',
      include_deleted_configs: false,
      page: 1,
      page_size: 200,
      sort_by: '-created_at',
    });
  });

  it('ignores a sort column the server does not know and caps the page size', () => {
    const params = parseChangesParams(new URLSearchParams('sortBy=diff&pageSize=5000&page=0'));
    expect(params.sortBy).toBe('created_at');
    expect(params.pageSize).toBe(1000);
    expect(params.page).toBe(1);
  });
});

describe('readTristate', () => {
  it("reads the state after the last ':' whether or not the '::' of a config type is escaped", () => {
    expect(readTristate('Kubernetes::Pod:1,AWS\\:\\:EC2\\:\\:Instance:-1')).toEqual({ 'Kubernetes::Pod': 1, 'AWS::EC2::Instance': -1 });
  });

  it('includes a value written without a state', () => {
    expect(readTristate('Kubernetes::Pod')).toEqual({ 'Kubernetes::Pod': 1 });
  });
});
