import { describe, expect, it } from 'vitest';
import { MAPPED_TIME_RANGES } from '@opsdeck/shared';
import {
  DEFAULT_JOB_HISTORY_PARAMS,
  JOB_HISTORY_RELATIVE_RANGES,
  parseJobHistoryParams,
  parseJobTimeRange,
  serializeJobHistoryParams,
  type JobHistoryParams,
} from './job-history-params';

const parse = (query: string) => parseJobHistoryParams(new URLSearchParams(query));

describe('job history URL parameters', () => {
  it('opens on successful runs of the last two days, newest first, 50 to a page', () => {
    expect(parse('')).toEqual(DEFAULT_JOB_HISTORY_PARAMS);
    expect(DEFAULT_JOB_HISTORY_PARAMS).toMatchObject({ status: 'SUCCESS', timeRange: { type: 'relative', range: 'now-2d' }, pageSize: 50, sortBy: 'created_at', sortOrder: 'desc' });
  });

  it('leaves the URL empty for the defaults', () => {
    expect(serializeJobHistoryParams(DEFAULT_JOB_HISTORY_PARAMS).toString()).toBe('');
  });

  it('writes every filter, page and sort and reads them back unchanged', () => {
    const params: JobHistoryParams = {
      name: 'Scraper',
      resourceType: 'config_scraper',
      status: 'FAILED',
      runDuration: '30s',
      timeRange: { type: 'relative', range: 'now-7d' },
      pageIndex: 2,
      pageSize: 100,
      sortBy: 'duration_millis',
      sortOrder: 'asc',
    };
    const search = serializeJobHistoryParams(params);
    expect(Object.fromEntries(search)).toEqual({
      name: 'Scraper',
      resourceType: 'config_scraper',
      status: 'FAILED',
      runDuration: '30s',
      rangeType: 'relative',
      range: '7d',
      pageIndex: '2',
      pageSize: '100',
      sortBy: 'duration_millis',
      sortOrder: 'asc',
    });
    expect(parseJobHistoryParams(search)).toEqual(params);
  });

  it('keeps "every status" apart from the SUCCESS default', () => {
    const all = { ...DEFAULT_JOB_HISTORY_PARAMS, status: null };
    expect(serializeJobHistoryParams(all).get('status')).toBe('all');
    expect(parse('status=all').status).toBeNull();
  });

  it('falls back to the defaults for values it does not know', () => {
    expect(parse('status=BROKEN&runDuration=7s&pageSize=150&pageIndex=-1&sortBy=hostname&sortOrder=sideways')).toEqual(DEFAULT_JOB_HISTORY_PARAMS);
  });

  it('round-trips a quick range by its display name and date math', () => {
    const previousWeek = MAPPED_TIME_RANGES.find((range) => range.display === 'Previous week');
    if (!previousWeek) throw new Error('no Previous week range');
    const search = serializeJobHistoryParams({ ...DEFAULT_JOB_HISTORY_PARAMS, timeRange: previousWeek });
    expect(Object.fromEntries(search)).toEqual({ rangeType: 'mapped', display: 'Previous week', from: 'now-1w/w', to: 'now-1w/w' });
    expect(parseJobHistoryParams(search).timeRange).toEqual(previousWeek);
  });

  it('round-trips an absolute range and refuses one that ends before it starts', () => {
    const range = { type: 'absolute', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' } as const;
    const search = serializeJobHistoryParams({ ...DEFAULT_JOB_HISTORY_PARAMS, timeRange: range });
    expect(parseJobHistoryParams(search).timeRange).toEqual(range);
    expect(parse('rangeType=absolute&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z').timeRange).toEqual(DEFAULT_JOB_HISTORY_PARAMS.timeRange);
  });

  it('reads every relative range of the job history, and timeRange or duration links as relative ranges', () => {
    for (const key of JOB_HISTORY_RELATIVE_RANGES) {
      expect(parseJobTimeRange(new URLSearchParams(`rangeType=relative&range=${key}`))).toEqual({ type: 'relative', range: `now-${key}` });
    }
    expect(parse('timeRange=now-3h').timeRange).toEqual({ type: 'relative', range: 'now-3h' });
    expect(parse('duration=12h').timeRange).toEqual({ type: 'relative', range: 'now-12h' });
    expect(parse('range=now-1d/d').timeRange).toEqual(DEFAULT_JOB_HISTORY_PARAMS.timeRange);
  });

  it('maps an unknown quick range back to the default', () => {
    expect(parse('rangeType=mapped&display=Someday&from=now-9d/d&to=now-9d/d').timeRange).toEqual(DEFAULT_JOB_HISTORY_PARAMS.timeRange);
  });
});
