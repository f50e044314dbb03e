import { MAPPED_TIME_RANGES, isDateMath, type RelativeTimeRange, type TimeRange } from '@opsdeck/shared';

/** Spec 001 §9: the page shows 50 runs, with 100 and 200 on offer. */
export const JOB_HISTORY_PAGE_SIZES = [50, 100, 200] as const;
export const JOB_HISTORY_PAGE_SIZE = 50;

/** Spec 001 §4: the filter offers these; STOPPED runs show only under 'All'. */
export const JOB_STATUS_FILTERS = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED'] as const;
export type JobStatusFilter = (typeof JOB_STATUS_FILTERS)[number];
export const DEFAULT_JOB_STATUS: JobStatusFilter = 'SUCCESS';
/** The status parameter's value for no status filter, since no parameter means the SUCCESS default. */
export const ALL_STATUSES = 'all';

/** Every resource_type a writer of job_history uses (the schedulers, playbooks, event consumers, retention, agents). */
export const JOB_RESOURCE_TYPES = [
  'agent',
  'canary',
  'catalog_scraper',
  'check',
  'config',
  'config_scraper',
  'event_queue',
  'notification',
  'playbook',
  'retention',
  'topology',
] as const;

/** Spec 001 §9: minimum run durations, in milliseconds. */
export const RUN_DURATIONS = {
  '15s': 15_000,
  '30s': 30_000,
  '1m': 60_000,
  '2m': 120_000,
  '3m': 180_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
} as const;
export type RunDuration = keyof typeof RUN_DURATIONS;
export const RUN_DURATION_KEYS = Object.keys(RUN_DURATIONS) as RunDuration[];

/** Spec 001 §9: the relative ranges of the job history (a month of 30 days is '30d', six calendar months '6M'). */
export const JOB_HISTORY_RELATIVE_RANGES = ['5m', '15m', '30m', '1h', '3h', '6h', '12h', '24h', '2d', '7d', '30d', '90d', '6M', '1y', '2y', '5y'] as const;
export const DEFAULT_JOB_RANGE: RelativeTimeRange = { type: 'relative', range: 'now-2d' };

/** The sortable columns, by the job_histories column each sorts. */
export const JOB_SORT_COLUMNS = ['name', 'resource_name', 'status', 'time_start', 'duration_millis', 'success_count', 'error_count', 'created_at'] as const;
export type JobSortColumn = (typeof JOB_SORT_COLUMNS)[number];
export const DEFAULT_JOB_SORT: JobSortColumn = 'created_at';

export interface JobHistoryParams {
  name: string | null;
  resourceType: string | null;
  /** null: every status. */
  status: JobStatusFilter | null;
  runDuration: RunDuration | null;
  timeRange: TimeRange;
  pageIndex: number;
  pageSize: number;
  sortBy: JobSortColumn;
  sortOrder: 'asc' | 'desc';
}

export const DEFAULT_JOB_HISTORY_PARAMS: JobHistoryParams = {
  name: null,
  resourceType: null,
  status: DEFAULT_JOB_STATUS,
  runDuration: null,
  timeRange: DEFAULT_JOB_RANGE,
  pageIndex: 0,
  pageSize: JOB_HISTORY_PAGE_SIZE,
  sortBy: DEFAULT_JOB_SORT,
  sortOrder: 'desc',
};

function includes<T extends string>(list: readonly T[], value: string | null): value is T {
  return value !== null && (list as readonly string[]).includes(value);
}

function isInstant(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

/** A relative range as written in the URL: '2d' or 'now-2d'. */
function relative(value: string | null): TimeRange | null {
  if (value === null || value === '') return null;
  const expression = value.startsWith('now-') ? value : `now-${value}`;
  return isDateMath(expression) && !expression.includes('/') ? { type: 'relative', range: expression } : null;
}

/**
 * rangeType picks the form: relative uses `range`; mapped uses `display`, `from` and `to` (one of the quick ranges);
 * absolute uses `from` and `to` (ISO instants). Links that name only `timeRange` or `duration` (a relative length)
 * are read as relative ranges. Anything else is the two-day default.
 */
export function parseJobTimeRange(search: URLSearchParams): TimeRange {
  const type = search.get('rangeType');
  const from = search.get('from');
  const to = search.get('to');
  if (type === 'mapped') {
    const display = search.get('display');
    return MAPPED_TIME_RANGES.find((range) => range.from === from && range.to === to && (display === null || range.display === display)) ?? DEFAULT_JOB_RANGE;
  }
  if (type === 'absolute') return isInstant(from) && isInstant(to) && Date.parse(from) <= Date.parse(to) ? { type: 'absolute', from, to } : DEFAULT_JOB_RANGE;
  return relative(search.get('range')) ?? relative(search.get('timeRange')) ?? relative(search.get('duration')) ?? DEFAULT_JOB_RANGE;
}

function index(text: string | null): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 0 ? value : 0;
}

export function parseJobHistoryParams(search: URLSearchParams): JobHistoryParams {
  const status = search.get('status');
  const name = search.get('name');
  const resourceType = search.get('resourceType');
  const runDuration = search.get('runDuration');
  const pageSize = Number(search.get('pageSize'));
  const sortBy = search.get('sortBy');
  return {
    name: name === null || name === '' ? null : name,
    resourceType: resourceType === null || resourceType === '' ? null : resourceType,
    status: status === ALL_STATUSES ? null : includes(JOB_STATUS_FILTERS, status) ? status : DEFAULT_JOB_STATUS,
    runDuration: includes(RUN_DURATION_KEYS, runDuration) ? runDuration : null,
    timeRange: parseJobTimeRange(search),
    pageIndex: index(search.get('pageIndex')),
    pageSize: (JOB_HISTORY_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : JOB_HISTORY_PAGE_SIZE,
    sortBy: includes(JOB_SORT_COLUMNS, sortBy) ? sortBy : DEFAULT_JOB_SORT,
    sortOrder: search.get('sortOrder') === 'asc' ? 'asc' : 'desc',
  };
}

function isDefaultRange(range: TimeRange): boolean {
  return range.type === 'relative' && range.range === DEFAULT_JOB_RANGE.range;
}

/** The URL parameters of a range; the default leaves them out. */
export function jobTimeRangeParams(range: TimeRange): Record<'rangeType' | 'range' | 'display' | 'from' | 'to', string | null> {
  const none = { rangeType: null, range: null, display: null, from: null, to: null };
  if (isDefaultRange(range)) return none;
  switch (range.type) {
    case 'relative':
      return { ...none, rangeType: 'relative', range: range.range.replace(/^now-/, '') };
    case 'mapped':
      return { ...none, rangeType: 'mapped', display: range.display, from: range.from, to: range.to };
    case 'absolute':
      return { ...none, rangeType: 'absolute', from: range.from, to: range.to };
  }
}

/** The query string of a state, default values left out so a plain /settings/jobs shows the defaults. */
export function serializeJobHistoryParams(params: JobHistoryParams): URLSearchParams {
  const search = new URLSearchParams();
  const set = (key: string, value: string | null) => {
    if (value !== null) search.set(key, value);
  };
  set('name', params.name);
  set('resourceType', params.resourceType);
  set('status', params.status === DEFAULT_JOB_STATUS ? null : (params.status ?? ALL_STATUSES));
  set('runDuration', params.runDuration);
  for (const [key, value] of Object.entries(jobTimeRangeParams(params.timeRange))) set(key, value);
  set('pageIndex', params.pageIndex === 0 ? null : String(params.pageIndex));
  set('pageSize', params.pageSize === JOB_HISTORY_PAGE_SIZE ? null : String(params.pageSize));
  set('sortBy', params.sortBy === DEFAULT_JOB_SORT ? null : params.sortBy);
  set('sortOrder', params.sortOrder === 'desc' ? null : params.sortOrder);
  return search;
}
