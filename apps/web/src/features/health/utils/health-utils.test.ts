import { describe, expect, it } from 'vitest';
import { defaultCheckRange, FALLBACK_CHECK_RANGE } from './default-check-range';
import { DURATION_FILTER_OPTIONS, parseDurationFilter } from './duration-filter';
import { groupByOptions, groupKeyOf, isBooleanLabel, tabByOptions } from './grouping';
import { applyHealthParams, parseHealthParams } from './use-health-page-params';
import { transitionAge } from './check-format';
import { makeCheck } from '../health-test-support';

const NOW = new Date('2024-05-10T12:00:00Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

describe('parseDurationFilter', () => {
  it.each([
    ['All', null],
    ['100ms', 100],
    ['1s', 1000],
    ['1.5s', 1500],
    [' 30s ', 30_000],
  ])('accepts %s', (text, minDurationMs) => {
    expect(parseDurationFilter(text)).toEqual({ valid: true, minDurationMs });
  });

  it.each(['2m', '1h', 'abc', '-5ms', '5', 'ms', '1 s', 'all'])('refuses %s', (text) => {
    expect(parseDurationFilter(text)).toEqual({ valid: false });
  });

  it('offers All, 100ms, 500ms, 1s, 5s, 10s and 30s', () => {
    expect(DURATION_FILTER_OPTIONS).toEqual(['All', '100ms', '500ms', '1s', '5s', '10s', '30s']);
  });
});

describe('defaultCheckRange', () => {
  it.each([
    [1, '1h'],
    [59, '1h'],
    [61, '2h'],
    [25 * 60, '2d'],
    [40 * 24 * 60, '2mo'],
    [4 * 360 * 24 * 60, '5y'],
  ])('picks the smallest range holding a run %i minutes ago', (minutes, key) => {
    expect(defaultCheckRange(ago(minutes), NOW)).toBe(key);
  });

  it('falls back to the second option of the list without a run or beyond five years', () => {
    expect(FALLBACK_CHECK_RANGE).toBe('1h');
    expect(defaultCheckRange(null, NOW)).toBe('1h');
    expect(defaultCheckRange('0001-01-01T00:00:00Z', NOW)).toBe('1h');
    expect(defaultCheckRange(ago(6 * 360 * 24 * 60), NOW)).toBe('1h');
  });
});

describe('grouping', () => {
  it('groups by name on the prefix before the slash', () => {
    expect(groupKeyOf(makeCheck({ id: '1', name: 'api/healthz' }), 'name')).toBe('api');
    expect(groupKeyOf(makeCheck({ id: '2', name: 'standalone' }), 'name')).toBe('standalone');
  });

  it('groups by a label key, with checks lacking it in an empty group', () => {
    expect(groupKeyOf(makeCheck({ id: '1', name: 'a', labels: { env: 'prod' } }), 'env')).toBe('prod');
    expect(groupKeyOf(makeCheck({ id: '2', name: 'b' }), 'env')).toBe('');
  });

  it('lists Group By and Tab By options in the order of the spec', () => {
    expect(groupByOptions(['env']).map((option) => option.label)).toEqual(['No Grouping', 'Group Name', 'Name', 'Description', 'Type', 'env']);
    expect(tabByOptions(['env', 'team']).map((option) => option.label)).toEqual(['namespace', 'env', 'team', 'Agent']);
  });

  it('treats labels with only true and false values as boolean', () => {
    expect(isBooleanLabel(['false', 'true'])).toBe(true);
    expect(isBooleanLabel(['true', 'yes'])).toBe(false);
    expect(isBooleanLabel([])).toBe(false);
  });
});

describe('transitionAge', () => {
  it('shows the age only between one hour and seven days', () => {
    expect(transitionAge(ago(30), NOW)).toBe('');
    expect(transitionAge(ago(90), NOW)).toBe('1h');
    expect(transitionAge(ago(3 * 24 * 60), NOW)).toBe('3d');
    expect(transitionAge(ago(8 * 24 * 60), NOW)).toBe('');
  });
});

describe('health page parameters', () => {
  it('reads every query parameter of the page with its default', () => {
    const params = parseHealthParams(new URLSearchParams('timeRange=6h&layout=card&groupBy=env&tabBy=agent&tab=edge&status=unhealthy,warning,bogus&pageSize=100&checkId=x'));
    expect(params).toMatchObject({ timeRange: '6h', layout: 'card', groupBy: 'env', tabBy: 'agent', tab: 'edge', status: ['unhealthy', 'warning'], pageSize: 100, checkId: 'x' });
    expect(parseHealthParams(new URLSearchParams('timeRange=bogus'))).toMatchObject({ timeRange: '1d', layout: 'table', groupBy: 'none', tabBy: 'namespace', tab: 'All', pageSize: 50 });
  });

  it('drops values equal to their default from the URL', () => {
    const next = applyHealthParams(new URLSearchParams('query=db&groupBy=env'), { groupBy: 'none', timeRange: '1d', layout: 'card', query: null });
    expect(next.toString()).toBe('layout=card');
  });
});
