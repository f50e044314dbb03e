import { describe, expect, it } from 'vitest';
import { MAPPED_TIME_RANGES, PLAYBOOK_RUNS_PAGE_SIZE, relativeTimeRange } from '@opsdeck/shared';
import { DEFAULT_RUNS_RANGE, parseRunsParams, parseRunsTimeRange, pickerTimeRange, runsTimeRangeParams } from './runs-params';

describe('run list URL parameters', () => {
  it('default to every playbook and status, the last 7 days and the first page of 150', () => {
    expect(parseRunsParams(new URLSearchParams())).toEqual({ playbookId: null, status: null, timeRange: { type: 'relative', range: 'now-7d' }, pageIndex: 0, pageSize: PLAYBOOK_RUNS_PAGE_SIZE });
  });

  it('read the playbook, a known status, the page and a listed page size', () => {
    const params = parseRunsParams(new URLSearchParams({ playbook: 'p1', status: 'waiting', page: '4', pageSize: '200' }));
    expect(params).toMatchObject({ playbookId: 'p1', status: 'waiting', pageIndex: 3, pageSize: 200 });
  });

  it('drop an unknown status, a bad page and an unlisted page size', () => {
    const params = parseRunsParams(new URLSearchParams({ status: 'done', page: '-2', pageSize: '7' }));
    expect(params).toMatchObject({ status: null, pageIndex: 0, pageSize: PLAYBOOK_RUNS_PAGE_SIZE });
  });

  it('read relative, quick and absolute ranges, and fall back to the default for anything else', () => {
    expect(parseRunsTimeRange('now-2d', null)).toEqual({ type: 'relative', range: 'now-2d' });
    const yesterday = MAPPED_TIME_RANGES[0];
    expect(parseRunsTimeRange(yesterday?.from ?? '', yesterday?.to ?? '')).toEqual(yesterday);
    expect(parseRunsTimeRange('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).toEqual({ type: 'absolute', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' });
    expect(parseRunsTimeRange('2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z')).toEqual(DEFAULT_RUNS_RANGE);
    expect(parseRunsTimeRange('yesterday', null)).toEqual(DEFAULT_RUNS_RANGE);
  });

  it('leave the URL clean for the last 7 days however written, and show it as the picker names it', () => {
    expect(runsTimeRangeParams(relativeTimeRange('1w'))).toEqual({ from: null, to: null });
    expect(runsTimeRangeParams(DEFAULT_RUNS_RANGE)).toEqual({ from: null, to: null });
    expect(runsTimeRangeParams(relativeTimeRange('1d'))).toEqual({ from: 'now-1d', to: null });
    expect(pickerTimeRange(DEFAULT_RUNS_RANGE)).toEqual(relativeTimeRange('1w'));
    expect(pickerTimeRange(relativeTimeRange('2d'))).toEqual(relativeTimeRange('2d'));
  });
});
