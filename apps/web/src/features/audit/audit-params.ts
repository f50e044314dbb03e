import { DEFAULT_PAGE_SIZE, MAPPED_TIME_RANGES, PAGE_SIZE_OPTIONS, isDateMath, type RelativeTimeRange, type TimeRange } from '@opsdeck/shared';
import { TEXT_SEARCH_MAX_LENGTH } from '@/lib/api/text-search';

/** What the server records (modules/audit): the data API's verbs, domain routes' create/update/delete/execute, and more. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'upsert', 'execute', 'revoke', 'purge'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_SIZES: readonly number[] = PAGE_SIZE_OPTIONS;
export const DEFAULT_AUDIT_RANGE: RelativeTimeRange = { type: 'relative', range: 'now-7d' };
/** The relative ranges offered; the log keeps a year by default (audit.retention.days). */
export const AUDIT_RELATIVE_RANGES = ['15m', '1h', '6h', '24h', '2d', '7d', '30d', '90d', '1y'] as const;

export interface AuditLogParams {
  /** A person's id (exact), or text found in the actor's name; '' for everyone. */
  actor: string;
  /** A table or resource name, exactly; '' for all. */
  resource: string;
  action: AuditAction | null;
  timeRange: TimeRange;
  pageIndex: number;
  pageSize: number;
}

export const AUDIT_PARAMS = {
  actor: 'actor',
  resource: 'resource',
  action: 'action',
  rangeType: 'rangeType',
  range: 'range',
  display: 'display',
  from: 'from',
  to: 'to',
  page: 'page',
  pageSize: 'pageSize',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isPersonId(text: string): boolean {
  return UUID.test(text);
}

function isInstant(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

function relative(value: string | null): TimeRange | null {
  if (value === null || value === '') return null;
  const expression = value.startsWith('now-') ? value : `now-${value}`;
  return isDateMath(expression) && !expression.includes('/') ? { type: 'relative', range: expression } : null;
}

/** The range of the URL: relative (`range=7d`), one of the quick ranges (`rangeType=mapped`) or absolute instants. */
export function parseAuditTimeRange(search: URLSearchParams): TimeRange {
  const type = search.get(AUDIT_PARAMS.rangeType);
  const from = search.get(AUDIT_PARAMS.from);
  const to = search.get(AUDIT_PARAMS.to);
  if (type === 'mapped') {
    const display = search.get(AUDIT_PARAMS.display);
    return MAPPED_TIME_RANGES.find((range) => range.from === from && range.to === to && (display === null || range.display === display)) ?? DEFAULT_AUDIT_RANGE;
  }
  if (type === 'absolute') return isInstant(from) && isInstant(to) && Date.parse(from) <= Date.parse(to) ? { type: 'absolute', from, to } : DEFAULT_AUDIT_RANGE;
  return relative(search.get(AUDIT_PARAMS.range)) ?? DEFAULT_AUDIT_RANGE;
}

function clip(text: string | null): string {
  return [...(text ?? '')].slice(0, TEXT_SEARCH_MAX_LENGTH).join('').trim();
}

/** The page's state from the URL; anything the page does not know falls back to its default. */
export function parseAuditLogParams(search: URLSearchParams): AuditLogParams {
  const action = search.get(AUDIT_PARAMS.action);
  const page = Math.trunc(Number(search.get(AUDIT_PARAMS.page) ?? '1'));
  const pageSize = Number(search.get(AUDIT_PARAMS.pageSize));
  return {
    actor: clip(search.get(AUDIT_PARAMS.actor)),
    resource: clip(search.get(AUDIT_PARAMS.resource)),
    action: AUDIT_ACTIONS.find((known) => known === action) ?? null,
    timeRange: parseAuditTimeRange(search),
    pageIndex: Number.isFinite(page) && page > 1 ? page - 1 : 0,
    pageSize: AUDIT_PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** The URL parameters of a range; the default leaves them out. */
export function auditTimeRangeParams(range: TimeRange): Record<'rangeType' | 'range' | 'display' | 'from' | 'to', string | null> {
  const none = { rangeType: null, range: null, display: null, from: null, to: null };
  if (range.type === 'relative' && range.range === DEFAULT_AUDIT_RANGE.range) return none;
  switch (range.type) {
    case 'relative':
      return { ...none, range: range.range.replace(/^now-/, '') };
    case 'mapped':
      return { ...none, rangeType: 'mapped', display: range.display, from: range.from, to: range.to };
    case 'absolute':
      return { ...none, rangeType: 'absolute', from: range.from, to: range.to };
  }
}
