import {
  CATALOG_CHANGE_SORTS,
  CATALOG_CHANGES_DEFAULT_FROM,
  CATALOG_CHANGES_MAX_PAGE_SIZE,
  CATALOG_CHANGES_PAGE_SIZE,
  MAPPED_TIME_RANGES,
  encodeTristate,
  isTimeRangeKey,
  splitEscaped,
  unescapeFilterValue,
  type CatalogChangeSort,
  type CatalogChangesRequest,
  type TimeRange,
  type TristateSelection,
  type TristateValue,
} from '@opsdeck/shared';

/** Spec 002 §2.1: the URL form of a tag filter joins key and value with four underscores. */
export const TAG_SEPARATOR = '____';
/** Spec 002 §9: the changes list opens on the last 2 days. */
export const DEFAULT_CHANGES_RANGE: TimeRange = { type: 'relative', range: CATALOG_CHANGES_DEFAULT_FROM };
export const DEFAULT_CHANGES_SORT: CatalogChangeSort = 'created_at';
/** Stored yes/no in localStorage like the catalog's own 'Hide Deleted Catalog'; yes unless the user said no. */
export const HIDE_DELETED_CHANGES_KEY = 'hideDeletedConfigChanges';

export type SortDirection = 'asc' | 'desc';

/** The /catalog/changes query string, read into what the page shows. */
export interface ChangesPageParams {
  /** Tristate URL form in the filter codec's escaping ('Kubernetes\:\:Pod:1'). */
  configTypes: string;
  changeType: string;
  severity: string;
  /** Tristate URL form of `key____value` entries. */
  tags: string;
  /** Comma lists where '!' excludes, sent as typed. */
  source: string;
  externalCreatedBy: string;
  id: string;
  summary: string;
  createdBy: string;
  timeRange: TimeRange;
  page: number;
  pageSize: number;
  sortBy: CatalogChangeSort;
  sortDirection: SortDirection;
}

/** The URL parameter of each filter, named as spec 002 §2.1 names them. */
export const PARAM_NAMES = {
  configTypes: 'configTypes',
  changeType: 'changeType',
  severity: 'severity',
  tags: 'tags',
  source: 'source',
  externalCreatedBy: 'external_created_by',
  id: 'id',
  summary: 'summary',
  createdBy: 'created_by',
} as const;
export type FilterName = keyof typeof PARAM_NAMES;

/**
 * The tristate URL form, read leniently: the state follows the last ':', so a hand-written
 * 'Kubernetes::Pod:1' works as well as the codec's escaped 'Kubernetes\:\:Pod:1', and a value without a state
 * ('Kubernetes::Pod', as /catalog links write configType) is included.
 */
export function readTristate(text: string): Record<string, TristateValue> {
  const entries: [string, TristateValue][] = [];
  for (const part of splitEscaped(text, ',')) {
    if (part === '') continue;
    const pieces = splitEscaped(part, ':');
    const last = pieces.at(-1);
    const hasState = pieces.length > 1 && (last === '1' || last === '-1');
    const value = unescapeFilterValue(hasState ? pieces.slice(0, -1).join(':') : part);
    if (value !== '') entries.push([value, hasState && last === '-1' ? -1 : 1]);
  }
  return Object.fromEntries(entries);
}

/** The codec's own form of a lenient URL value, what the filter dropdowns read. */
function normalTristate(text: string): string {
  return encodeTristate(readTristate(text));
}

function isSort(value: string | null): value is CatalogChangeSort {
  return value !== null && (CATALOG_CHANGE_SORTS as readonly string[]).includes(value);
}

function isInstant(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

/** `from`/`to` in the URL: a relative key as 'now-2d' alone, a quick range or an absolute range as both ends. */
export function parseTimeRange(from: string | null, to: string | null): TimeRange {
  if (from === null) return DEFAULT_CHANGES_RANGE;
  const key = from.replace(/^now-/, '');
  if ((to === null || to === 'now') && from.startsWith('now-') && isTimeRangeKey(key)) return { type: 'relative', range: from };
  const mapped = MAPPED_TIME_RANGES.find((range) => range.from === from && range.to === to);
  if (mapped) return mapped;
  if (isInstant(from) && isInstant(to)) return { type: 'absolute', from, to };
  return DEFAULT_CHANGES_RANGE;
}

export function timeRangeParams(range: TimeRange): { from: string | null; to: string | null } {
  switch (range.type) {
    case 'relative':
      return { from: range.range === CATALOG_CHANGES_DEFAULT_FROM ? null : range.range, to: null };
    case 'mapped':
    case 'absolute':
      return { from: range.from, to: range.to };
  }
}

function positiveInt(text: string | null, fallback: number, max: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? Math.min(value, max) : fallback;
}

export function parseChangesParams(search: URLSearchParams): ChangesPageParams {
  const text = (name: string) => search.get(name) ?? '';
  const sortBy = search.get('sortBy');
  return {
    configTypes: normalTristate(text(PARAM_NAMES.configTypes)),
    changeType: normalTristate(text(PARAM_NAMES.changeType)),
    severity: normalTristate(text(PARAM_NAMES.severity)),
    tags: normalTristate(text(PARAM_NAMES.tags)),
    source: text(PARAM_NAMES.source),
    externalCreatedBy: text(PARAM_NAMES.externalCreatedBy),
    id: text(PARAM_NAMES.id),
    summary: text(PARAM_NAMES.summary),
    createdBy: text(PARAM_NAMES.createdBy),
    timeRange: parseTimeRange(search.get('from'), search.get('to')),
    page: positiveInt(search.get('page'), 1, Number.MAX_SAFE_INTEGER),
    pageSize: positiveInt(search.get('pageSize'), CATALOG_CHANGES_PAGE_SIZE, CATALOG_CHANGES_MAX_PAGE_SIZE),
    sortBy: isSort(sortBy) ? sortBy : DEFAULT_CHANGES_SORT,
    sortDirection: search.get('sortDirection') === 'asc' ? 'asc' : 'desc',
  };
}

/**
 * A tristate selection as the server's match list: included values as they are, excluded ones after '!'. Config
 * types hold '::', so the filter codec's escaped query form would not reach the server intact.
 */
export function toMatchList(selection: TristateSelection): string {
  return Object.entries(selection)
    .filter(([, state]) => state !== 0)
    .map(([value, state]) => (state === -1 ? `!${value}` : value))
    .join(',');
}

/** `cluster____prod:1,namespace____kube-system:-1` as the selector `cluster=prod,namespace!=kube-system`. */
export function toTagSelector(urlForm: string): string {
  return Object.entries(readTristate(urlForm))
    .flatMap(([entry, state]) => {
      const at = entry.indexOf(TAG_SEPARATOR);
      if (at <= 0) return [];
      const key = entry.slice(0, at);
      const value = entry.slice(at + TAG_SEPARATOR.length);
      return [`${key}${state === -1 ? '!=' : '='}${value}`];
    })
    .join(',');
}

function timeRangeBody(range: TimeRange): { from: string; to: string } {
  return range.type === 'relative' ? { from: range.range, to: 'now' } : { from: range.from, to: range.to };
}

/** The body of POST /api/catalog/changes; empty filters are left out so the server's defaults apply. */
export function changesRequestBody(params: ChangesPageParams, hideDeleted: boolean): Partial<CatalogChangesRequest> {
  const body: Partial<CatalogChangesRequest> = {
    ...timeRangeBody(params.timeRange),
    include_deleted_configs: !hideDeleted,
    page: params.page,
    page_size: params.pageSize,
    sort_by: `${params.sortDirection === 'desc' ? '-' : ''}${params.sortBy}`,
  };
  const optional: [keyof CatalogChangesRequest, string][] = [
    ['config_type', toMatchList(readTristate(params.configTypes))],
    ['change_type', toMatchList(readTristate(params.changeType))],
    ['severity', toMatchList(readTristate(params.severity))],
    ['tags', toTagSelector(params.tags)],
    ['source', params.source.trim()],
    ['external_created_by', params.externalCreatedBy.trim()],
    ['id', params.id.trim()],
    ['summary', params.summary.trim()],
    ['created_by', params.createdBy.trim()],
  ];
  for (const [name, value] of optional) {
    if (value !== '') Object.assign(body, { [name]: value });
  }
  return body;
}
