import {
  MAPPED_TIME_RANGES,
  PAGE_SIZE_OPTIONS,
  PLAYBOOK_RUNS_DEFAULT_RANGE,
  PLAYBOOK_RUNS_PAGE_SIZE,
  PLAYBOOK_RUN_STATUSES,
  isDateMath,
  relativeTimeRange,
  timeRangeMinutes,
  type PlaybookRunStatus,
  type TimeRange,
} from '@opsdeck/shared';

/** Spec 001 §2.5 and §9: the run list opens on the last 7 days. */
export const DEFAULT_RUNS_RANGE: TimeRange = { type: 'relative', range: PLAYBOOK_RUNS_DEFAULT_RANGE };
const WEEK_MINUTES = 7 * 24 * 60;

/** The /playbooks/runs query string, read into what the page shows. */
export interface RunsPageParams {
  playbookId: string | null;
  status: PlaybookRunStatus | null;
  timeRange: TimeRange;
  pageIndex: number;
  pageSize: number;
}

function isRunStatus(value: string | null): value is PlaybookRunStatus {
  return value !== null && (PLAYBOOK_RUN_STATUSES as readonly string[]).includes(value);
}

function isInstant(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

/** `from`/`to`: a relative range as 'now-2d' alone, a quick range or an absolute range as both ends. */
export function parseRunsTimeRange(from: string | null, to: string | null): TimeRange {
  if (from === null) return DEFAULT_RUNS_RANGE;
  if ((to === null || to === 'now') && /^now-/.test(from) && isDateMath(from) && !from.includes('/')) return { type: 'relative', range: from };
  const mapped = MAPPED_TIME_RANGES.find((range) => range.from === from && range.to === to);
  if (mapped) return mapped;
  if (isInstant(from) && isInstant(to) && Date.parse(from) <= Date.parse(to)) return { type: 'absolute', from, to };
  return DEFAULT_RUNS_RANGE;
}

/** The last 7 days however written ('now-7d', or 'now-1w' as the picker offers it). */
function isDefaultRange(range: TimeRange): boolean {
  return range.type === 'relative' && timeRangeMinutes(range) === WEEK_MINUTES;
}

/** The URL form of a range; the default leaves the URL clean. */
export function runsTimeRangeParams(range: TimeRange): { from: string | null; to: string | null } {
  if (isDefaultRange(range)) return { from: null, to: null };
  return range.type === 'relative' ? { from: range.range, to: null } : { from: range.from, to: range.to };
}

/** The picker offers weeks, not 7 days: the default is shown as its 'Last 1 week', which is the same span. */
export function pickerTimeRange(range: TimeRange): TimeRange {
  return isDefaultRange(range) ? relativeTimeRange('1w') : range;
}

function pageNumber(text: string | null): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : 1;
}

function pageSize(text: string | null): number {
  const value = Number(text);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(value) ? value : PLAYBOOK_RUNS_PAGE_SIZE;
}

export function parseRunsParams(search: URLSearchParams): RunsPageParams {
  const status = search.get('status');
  const playbook = search.get('playbook');
  return {
    playbookId: playbook === null || playbook === '' ? null : playbook,
    status: isRunStatus(status) ? status : null,
    timeRange: parseRunsTimeRange(search.get('from'), search.get('to')),
    pageIndex: pageNumber(search.get('page')) - 1,
    pageSize: pageSize(search.get('pageSize')),
  };
}
