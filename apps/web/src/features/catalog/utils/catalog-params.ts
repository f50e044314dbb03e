import { useCallback, useMemo } from 'react';
import { useSearchParamsUpdate } from '@/lib/use-search-params-update';
import { CATALOG_SUMMARY_DEFAULT_GROUP_BY, decodeTristate, encodeTristate, type TristateValue } from '@opsdeck/shared';

/** Spec 002 §2.1: labels are `key__:__value` pairs joined by commas. */
export const LABEL_PAIR_SEPARATOR = '__:__';
/** Spec 002 §2.1: a tag filter value is `key____value`, in the tristate URL form (`key____value:1` or `:-1`). */
export const TAG_PAIR_SEPARATOR = '____';
export const DEFAULT_GROUP_BY: readonly string[] = CATALOG_SUMMARY_DEFAULT_GROUP_BY;
export const DEFAULT_SORT_BY = 'type';

export type SortOrder = 'asc' | 'desc';

export type CatalogParamName = 'configType' | 'labels' | 'search' | 'status' | 'health' | 'groupBy' | 'sortBy' | 'sortOrder' | 'tags';

/** The raw query string values of /catalog; '' when absent. */
export interface CatalogParams {
  configType: string;
  labels: string;
  search: string;
  /** Tristate URL form, e.g. `Running:1,Pending:-1`. */
  status: string;
  health: string;
  groupBy: string[];
  sortBy: string;
  /** False when sortBy is the default because the URL has none: a search then orders by relevance instead. */
  sortByChosen: boolean;
  sortOrder: SortOrder;
  tags: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface TagFilter {
  include: Record<string, string>;
  exclude: KeyValue[];
}

/** A parameter the page cannot read: the page says which and why instead of asking the server. */
export interface ParamProblem {
  param: 'labels' | 'tags';
  message: string;
}

/** The grouping `groupByProp` stands for: the older URL form `groupBy=tags&groupByProp=cluster` means `cluster__tag`. */
const LEGACY_TAGS_GROUPING = 'tags';

function readGroupBy(search: URLSearchParams): string[] {
  const property = (search.get('groupByProp') ?? '').trim();
  const propertyGrouping = property === '' ? null : `${property}__tag`;
  const groupBy = (search.get('groupBy') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .flatMap((part) => (part === LEGACY_TAGS_GROUPING ? (propertyGrouping === null ? [] : [propertyGrouping]) : [part]));
  if (propertyGrouping !== null && !groupBy.includes(propertyGrouping)) groupBy.push(propertyGrouping);
  return [...new Set(groupBy)];
}

export function parseCatalogParams(search: URLSearchParams): CatalogParams {
  const groupBy = readGroupBy(search);
  return {
    configType: search.get('configType') ?? '',
    labels: search.get('labels') ?? '',
    search: search.get('search') ?? '',
    status: search.get('status') ?? '',
    health: search.get('health') ?? '',
    groupBy: groupBy.length > 0 ? groupBy : [...DEFAULT_GROUP_BY],
    sortBy: search.get('sortBy') || DEFAULT_SORT_BY,
    sortByChosen: (search.get('sortBy') ?? '') !== '',
    sortOrder: search.get('sortOrder') === 'desc' ? 'desc' : 'asc',
    tags: search.get('tags') ?? '',
  };
}

/** Spec 002 §2.1: the grouped summary shows while none of configType, labels or search is set. */
export function isSummaryView(params: CatalogParams): boolean {
  return params.configType === '' && params.labels === '' && params.search === '';
}

const DEFAULTS: Partial<Record<CatalogParamName, string>> = {
  groupBy: DEFAULT_GROUP_BY.join(','),
  sortBy: DEFAULT_SORT_BY,
  sortOrder: 'asc',
};

/** Values equal to their default leave the URL, so the plain /catalog link and the default view are one page. */
export function applyCatalogParams(search: URLSearchParams, changes: Partial<Record<CatalogParamName, string | null>>): URLSearchParams {
  const next = new URLSearchParams(search);
  // A grouping chosen now, or cleared by a drill-down, replaces the one an older link spelled with groupByProp.
  if ('groupBy' in changes) next.delete('groupByProp');
  for (const [name, value] of Object.entries(changes) as [CatalogParamName, string | null][]) {
    if (value === null || value === '' || value === DEFAULTS[name]) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

export function parseLabels(text: string): Record<string, string> | ParamProblem {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair === '') continue;
    const at = pair.indexOf(LABEL_PAIR_SEPARATOR);
    if (at <= 0) return { param: 'labels', message: `'${pair}' is not a label filter: write key${LABEL_PAIR_SEPARATOR}value pairs joined by commas` };
    labels[pair.slice(0, at)] = pair.slice(at + LABEL_PAIR_SEPARATOR.length);
  }
  return labels;
}

export function formatLabels(labels: readonly KeyValue[]): string {
  return labels.map(({ key, value }) => `${key}${LABEL_PAIR_SEPARATOR}${value}`).join(',');
}

export function splitTag(value: string): KeyValue | null {
  const at = value.indexOf(TAG_PAIR_SEPARATOR);
  return at <= 0 ? null : { key: value.slice(0, at), value: value.slice(at + TAG_PAIR_SEPARATOR.length) };
}

export function tagValue(key: string, value: string): string {
  return `${key}${TAG_PAIR_SEPARATOR}${value}`;
}

export function parseTags(text: string): TagFilter | ParamProblem {
  const filter: TagFilter = { include: {}, exclude: [] };
  const selection = decodeTristate(text);
  // decodeTristate skips pairs it cannot read; a parameter that lost some of them was mistyped, not meant that way.
  const written = text.split(',').filter((pair) => pair !== '').length;
  if (Object.keys(selection).length !== written) {
    return { param: 'tags', message: `'${text}' is not a tag filter: write key${TAG_PAIR_SEPARATOR}value:1 to include or :-1 to exclude, joined by commas` };
  }
  for (const [entry, state] of Object.entries(selection)) {
    const tag = splitTag(entry);
    if (tag === null) return { param: 'tags', message: `'${entry}' is not a tag filter: write key${TAG_PAIR_SEPARATOR}value` };
    if (state === 1) filter.include[tag.key] = tag.value;
    else filter.exclude.push(tag);
  }
  return filter;
}

export function isProblem<T extends object>(value: T | ParamProblem): value is ParamProblem {
  return 'param' in value && 'message' in value;
}

/** A tristate selection in the server's match-list form: `healthy,!unknown`. */
export function toMatchList(text: string): string | undefined {
  const parts = Object.entries(decodeTristate(text)).map(([value, state]) => (state === -1 ? `!${value}` : value));
  return parts.length > 0 ? parts.join(',') : undefined;
}

export function splitTristate(text: string): { include: string[]; exclude: string[] } {
  const entries = Object.entries(decodeTristate(text));
  return {
    include: entries.filter(([, state]) => state === 1).map(([value]) => value),
    exclude: entries.filter(([, state]) => state === -1).map(([value]) => value),
  };
}

/** Adds tag includes to the tristate URL form, keeping what is already chosen for other tags. */
export function withIncludedTags(text: string, tags: readonly KeyValue[]): string {
  const selection: Record<string, TristateValue> = { ...decodeTristate(text) };
  for (const tag of tags) selection[tagValue(tag.key, tag.value)] = 1;
  return encodeTristate(selection);
}

/** The page's parameters, read from and written to the query string (DESIGN §6). */
export function useCatalogParams() {
  const [search, setSearch] = useSearchParamsUpdate();
  const params = useMemo(() => parseCatalogParams(search), [search]);
  // Filters replace the entry; a drill-down from the summary pushes one, so Back returns to the groups.
  const update = useCallback(
    (changes: Partial<Record<CatalogParamName, string | null>>, { push = false }: { push?: boolean } = {}) =>
      setSearch((previous) => applyCatalogParams(previous, changes), { replace: !push }),
    [setSearch],
  );
  return { params, update };
}
