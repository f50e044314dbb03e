import { describe, expect, it } from 'vitest';
import { defaultCheckRange, FALLBACK_CHECK_RANGE } from './default-check-range';
import { DURATION_FILTER_OPTIONS, parseDurationFilter } from './duration-filter';
import { groupByOptions, groupKeyOf, isBooleanLabel, tabByOptions } from './grouping';
import { applyHealthParams, parseHealthParams } from './use-health-page-params';
import { formatUptimePercentage, historyMessage, progressColor, roundedUptime, transitionAge, uptimePercentage } from './check-format';
import { buildPivotMatrix, parsePivotOption, pivotByOptions, pivotOptionValue } from './pivot';
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

describe('progressColor', () => {
  it.each([
    [0, 'red'],
    [50, 'red'],
    [74.9, 'red'],
    [75, 'orange'],
    [89.9, 'orange'],
    [90, 'green'],
    [99.5, 'green'],
    [100, 'green'],
  ] as const)('colours %d %% %s: red below 75, orange below 90, green from 90', (percentage, color) => {
    expect(progressColor(percentage)).toBe(color);
  });

  it('colours the uptime as it is shown, to one decimal', () => {
    const shown = roundedUptime(uptimePercentage({ passed: 8996, failed: 1004 }) ?? 0);
    expect(formatUptimePercentage(shown)).toBe('90%');
    expect(progressColor(shown)).toBe('green');
    expect(progressColor(roundedUptime(74.94))).toBe('red');
  });

  it('has no uptime without runs', () => {
    expect(uptimePercentage({ passed: 0, failed: 0 })).toBeNull();
  });
});

describe('historyMessage', () => {
  it('joins a message and a different error, and shows an error the checker also used as its message once', () => {
    expect(historyMessage('2 alerts firing', 'TargetDown (1)')).toBe('2 alerts firing — TargetDown (1)');
    expect(historyMessage('HTTP 404: the search failed', 'HTTP 404: the search failed')).toBe('HTTP 404: the search failed');
    expect(historyMessage(null, 'connection refused')).toBe('connection refused');
    expect(historyMessage('', null)).toBe('');
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

describe('pivot parameters', () => {
  it('reads pivotBy, pivotLabel and pivotCellType, defaulting to no pivot and the health cell', () => {
    expect(parseHealthParams(new URLSearchParams('pivotBy=labels&pivotLabel=env&pivotCellType=latency'))).toMatchObject({
      pivotBy: 'labels',
      pivotLabel: 'env',
      pivotCellType: 'latency',
    });
    expect(parseHealthParams(new URLSearchParams('pivotBy=agent&pivotLabel=env&pivotCellType=bogus'))).toMatchObject({ pivotBy: 'agent', pivotLabel: '', pivotCellType: 'health' });
    expect(parseHealthParams(new URLSearchParams('pivotBy=bogus'))).toMatchObject({ pivotBy: 'none', pivotCellType: 'health' });
  });

  it('does not pivot on labels without a label key', () => {
    expect(parseHealthParams(new URLSearchParams('pivotBy=labels'))).toMatchObject({ pivotBy: 'none', pivotLabel: '' });
  });

  it('writes the pivot to the URL and drops it again at its defaults', () => {
    const pivoted = applyHealthParams(new URLSearchParams(), { pivotBy: 'labels', pivotLabel: 'env', pivotCellType: 'uptime' });
    expect(pivoted.toString()).toBe('pivotBy=labels&pivotLabel=env&pivotCellType=uptime');
    expect(parseHealthParams(pivoted)).toMatchObject({ pivotBy: 'labels', pivotLabel: 'env', pivotCellType: 'uptime' });
    expect(applyHealthParams(pivoted, { pivotBy: 'none', pivotLabel: '', pivotCellType: 'health' }).toString()).toBe('');
  });

  it('lists None, Namespace, Type, Agent and then each label key, and maps a choice back to pivotBy and pivotLabel', () => {
    const options = pivotByOptions(['env', 'namespace']);
    expect(options.map((option) => option.label)).toEqual(['None', 'Namespace', 'Type', 'Agent', 'env', 'namespace']);
    for (const option of options) {
      const parsed = parsePivotOption(option.value);
      expect(pivotOptionValue(parsed.pivotBy, parsed.pivotLabel)).toBe(option.value);
    }
    expect(parsePivotOption(pivotOptionValue('labels', 'namespace'))).toEqual({ pivotBy: 'labels', pivotLabel: 'namespace' });
    expect(parsePivotOption('agent')).toEqual({ pivotBy: 'agent', pivotLabel: '' });
  });
});

describe('buildPivotMatrix', () => {
  const prod = makeCheck({ id: '1', name: 'api/healthz', labels: { env: 'prod' }, uptime: { passed: 99, failed: 1 }, latency: { p95: 100, p97: null, p99: null } });
  const staging = makeCheck({ id: '2', name: 'api/healthz', labels: { env: 'staging' }, namespace: null });
  const dev = makeCheck({ id: '3', name: 'web/home', labels: { env: 'dev' }, agent_id: 'x', agent_name: 'eu-agent' });
  const unlabelled = makeCheck({ id: '4', name: 'web/home', labels: {} });

  it('makes a row per check name and a column per value, both alphabetical, with none for a missing label', () => {
    const matrix = buildPivotMatrix([staging, dev, prod, unlabelled], 'labels', 'env', null);
    expect(matrix.columns).toEqual(['dev', 'none', 'prod', 'staging']);
    expect(matrix.rows.map((row) => row.key)).toEqual(['api/healthz', 'web/home']);
    expect(matrix.rows[0]?.cells.map((cell) => cell?.checks.map((check) => check.id))).toEqual([undefined, undefined, ['1'], ['2']]);
    expect(matrix.rows[1]?.cells.map((cell) => cell?.checks.map((check) => check.id))).toEqual([['3'], ['4'], undefined, undefined]);
  });

  it("names columns like the tabs: namespace or 'none', the type, the agent or 'local'", () => {
    expect(buildPivotMatrix([prod, staging], 'namespace', '', null).columns).toEqual(['default', 'none']);
    expect(buildPivotMatrix([prod, makeCheck({ id: '5', name: 'db', type: 'postgres' })], 'type', '', null).columns).toEqual(['http', 'postgres']);
    expect(buildPivotMatrix([prod, dev], 'agent', '', null).columns).toEqual(['eu-agent', 'local']);
  });

  it('rows by the prefix before the slash when grouping by name', () => {
    const matrix = buildPivotMatrix([prod, dev, makeCheck({ id: '6', name: 'api/version', labels: { env: 'prod' } })], 'labels', 'env', 'name');
    expect(matrix.rows.map((row) => row.key)).toEqual(['api', 'web']);
    expect(matrix.rows[0]?.cells[matrix.columns.indexOf('prod')]?.checks).toHaveLength(2);
  });

  it('aggregates a cell of several checks to the worst health, the lowest uptime and the highest p95', () => {
    const warning = makeCheck({ id: '7', name: 'api/healthz', labels: { env: 'prod' }, health: 'warning', uptime: { passed: 90, failed: 10 }, latency: { p95: 300, p97: null, p99: null } });
    const neverRan = makeCheck({ id: '8', name: 'api/healthz', labels: { env: 'prod' }, status: null, uptime: { passed: 0, failed: 0 }, latency: { p95: null, p97: null, p99: null } });
    const [cell] = buildPivotMatrix([prod, warning, neverRan], 'labels', 'env', null).rows[0]?.cells ?? [];
    expect(cell).toMatchObject({ health: 'warning', uptime: 90, p95: 300 });
    expect(cell?.checks).toHaveLength(3);

    const failing = makeCheck({ id: '9', name: 'api/healthz', labels: { env: 'prod' }, status: 'unhealthy' });
    expect(buildPivotMatrix([warning, failing], 'labels', 'env', null).rows[0]?.cells[0]?.health).toBe('unhealthy');
    expect(buildPivotMatrix([prod, neverRan], 'labels', 'env', null).rows[0]?.cells[0]?.health).toBe('unknown');
    expect(buildPivotMatrix([neverRan], 'labels', 'env', null).rows[0]?.cells[0]).toMatchObject({ uptime: null, p95: null });
  });
});
