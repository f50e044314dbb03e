import { useCallback, useMemo } from 'react';
import { useSearchParamsUpdate } from '@/lib/use-search-params-update';
import { DEFAULT_PAGE_SIZE, isTimeRangeKey, type TimeRangeKey } from '@opsdeck/shared';
import type { SummarySortKey, SummaryStatus } from '../api/keys';
import { ALL_TAB, DEFAULT_TAB_BY, NO_GROUPING } from './grouping';
import { NO_PIVOT, PIVOT_BY_VALUES, PIVOT_CELL_TYPES, type PivotBy, type PivotCellType } from './pivot';

export type HealthLayout = 'table' | 'card';

export const DEFAULT_HEALTH_RANGE: TimeRangeKey = '1d';
const SORT_KEYS: readonly SummarySortKey[] = ['name', 'status', 'uptime', 'latency', 'last_transition_time'];
/** The statuses /health may be opened with (spec 001 §2.2). */
const STATUS_ENTRIES: readonly SummaryStatus[] = ['healthy', 'unhealthy', 'warning', 'unknown'];

export interface HealthPageParams {
  timeRange: TimeRangeKey;
  layout: HealthLayout;
  /** Label filters in the tristate URL form, values written `key=value`. */
  labels: string;
  query: string;
  sortBy: SummarySortKey | null;
  sortDesc: boolean;
  groupBy: string;
  tabBy: string;
  tab: string;
  hidePassing: boolean;
  status: SummaryStatus[];
  pageIndex: number;
  pageSize: number;
  checkId: string | null;
  /** 'labels' only with a pivotLabel; without one the page does not pivot. */
  pivotBy: PivotBy;
  /** The label key columns come from when pivotBy is 'labels', else ''. */
  pivotLabel: string;
  pivotCellType: PivotCellType;
}

export type HealthParamName =
  | 'timeRange'
  | 'layout'
  | 'labels'
  | 'query'
  | 'sortBy'
  | 'sortDesc'
  | 'groupBy'
  | 'tabBy'
  | 'tab'
  | 'hidePassing'
  | 'status'
  | 'pageIndex'
  | 'pageSize'
  | 'checkId'
  | 'pivotBy'
  | 'pivotLabel'
  | 'pivotCellType';

/** Values equal to the default are dropped from the URL. */
export type HealthParamChanges = Partial<Record<HealthParamName, string | null>>;

function positiveInt(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function parseHealthParams(search: URLSearchParams): HealthPageParams {
  const timeRange = search.get('timeRange') ?? '';
  const sortBy = search.get('sortBy');
  const pivotLabel = search.get('pivotLabel') ?? '';
  const pivotBy = PIVOT_BY_VALUES.find((value) => value === search.get('pivotBy')) ?? NO_PIVOT;
  const pivotCellType = search.get('pivotCellType');
  const labelless = pivotBy === 'labels' && pivotLabel === '';
  return {
    timeRange: isTimeRangeKey(timeRange) ? timeRange : DEFAULT_HEALTH_RANGE,
    layout: search.get('layout') === 'card' ? 'card' : 'table',
    labels: search.get('labels') ?? '',
    query: search.get('query') ?? '',
    sortBy: SORT_KEYS.find((key) => key === sortBy) ?? null,
    sortDesc: search.get('sortDesc') === 'true',
    groupBy: search.get('groupBy') ?? NO_GROUPING,
    tabBy: search.get('tabBy') ?? DEFAULT_TAB_BY,
    tab: search.get('tab') ?? ALL_TAB,
    hidePassing: search.get('hidePassing') === 'true',
    status: (search.get('status') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part): part is SummaryStatus => (STATUS_ENTRIES as readonly string[]).includes(part)),
    pageIndex: positiveInt(search.get('pageIndex'), 0),
    pageSize: Math.max(1, positiveInt(search.get('pageSize'), DEFAULT_PAGE_SIZE)),
    checkId: search.get('checkId'),
    pivotBy: labelless ? NO_PIVOT : pivotBy,
    pivotLabel: pivotBy === 'labels' ? pivotLabel : '',
    pivotCellType: PIVOT_CELL_TYPES.find((value) => value === pivotCellType) ?? 'health',
  };
}

const DEFAULTS: Partial<Record<HealthParamName, string>> = {
  timeRange: DEFAULT_HEALTH_RANGE,
  layout: 'table',
  groupBy: NO_GROUPING,
  tabBy: DEFAULT_TAB_BY,
  tab: ALL_TAB,
  hidePassing: 'false',
  sortDesc: 'false',
  pageIndex: '0',
  pageSize: String(DEFAULT_PAGE_SIZE),
  pivotBy: NO_PIVOT,
  pivotCellType: 'health',
};

export function applyHealthParams(search: URLSearchParams, changes: HealthParamChanges): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes) as [HealthParamName, string | null][]) {
    if (value === null || value === '' || value === DEFAULTS[name]) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** The page's filters, layout and open check, kept in the query string (DESIGN §6). */
export function useHealthPageParams() {
  const [search, setSearch] = useSearchParamsUpdate();
  const params = useMemo(() => parseHealthParams(search), [search]);
  const update = useCallback(
    (changes: HealthParamChanges, options: { replace?: boolean } = {}) => setSearch((current) => applyHealthParams(current, changes), options),
    [setSearch],
  );
  return { params, update };
}
