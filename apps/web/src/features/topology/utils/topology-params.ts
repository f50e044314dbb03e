import { useCallback, useMemo } from 'react';
import { useSearchParamsUpdate } from '@/lib/use-search-params-update';
import type { TopologyQuery } from '../api/types';

/** Spec 001 §2.9: the query parameters of /topology and /topology/{id}. */
export const TOPOLOGY_PARAM_NAMES = ['labels', 'team', 'type', 'status', 'refererId', 'sortBy', 'sortOrder', 'agent_id', 'showHiddenComponents'] as const;
export type TopologyParamName = (typeof TOPOLOGY_PARAM_NAMES)[number];
export type TopologyParamChanges = Partial<Record<TopologyParamName, string | null>>;

export type TopologySortOrder = 'asc' | 'desc';

/** The value of a filter menu that means "no filter"; it never reaches the URL or the API (spec 002 §7). */
export const ALL_VALUE = 'All';
export const DEFAULT_SORT_BY = 'status';
export const DEFAULT_SORT_ORDER: TopologySortOrder = 'desc';
/** `sortBy=field:<property name>` sorts by a property's value. */
export const FIELD_SORT_PREFIX = 'field:';

/** Parameters dropped when moving to another component (spec 001 §2.9). */
const DROPPED_ON_NAVIGATION: readonly TopologyParamName[] = ['refererId', 'status'];

const DEFAULTS: Partial<Record<TopologyParamName, string>> = {
  sortBy: DEFAULT_SORT_BY,
  sortOrder: DEFAULT_SORT_ORDER,
  showHiddenComponents: 'yes',
};

export interface TopologyPageParams {
  labels: string;
  team: string;
  type: string;
  status: string;
  refererId: string;
  agentId: string;
  sortBy: string;
  sortOrder: TopologySortOrder;
  showHidden: boolean;
}

function isAll(value: string): boolean {
  return value.toLowerCase() === ALL_VALUE.toLowerCase();
}

function filterValue(search: URLSearchParams, name: TopologyParamName): string {
  const value = search.get(name)?.trim() ?? '';
  return isAll(value) ? '' : value;
}

export function parseTopologyParams(search: URLSearchParams): TopologyPageParams {
  const sortBy = search.get('sortBy')?.trim() ?? '';
  return {
    labels: filterValue(search, 'labels'),
    team: filterValue(search, 'team'),
    type: filterValue(search, 'type'),
    status: filterValue(search, 'status'),
    refererId: filterValue(search, 'refererId'),
    agentId: filterValue(search, 'agent_id'),
    sortBy: sortBy === '' || sortBy === FIELD_SORT_PREFIX ? DEFAULT_SORT_BY : sortBy,
    sortOrder: search.get('sortOrder') === 'asc' ? 'asc' : DEFAULT_SORT_ORDER,
    showHidden: search.get('showHiddenComponents') !== 'no',
  };
}

/** Writes `changes` over `search`; empty, 'All' and default values leave the URL. */
export function applyTopologyParams(search: URLSearchParams, changes: TopologyParamChanges): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes) as [TopologyParamName, string | null | undefined][]) {
    if (value === null || value === undefined || value === '' || isAll(value) || value === DEFAULTS[name]) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** What `GET /api/topology` is asked for the page's filters; the empty ones are left out. */
export function topologyApiQuery(params: TopologyPageParams, id: string | undefined): TopologyQuery {
  const query: TopologyQuery = {};
  if (id !== undefined) query.id = id;
  if (params.type !== '') query.type = params.type;
  if (params.team !== '') query.team = params.team;
  if (params.labels !== '') query.labels = params.labels;
  if (params.status !== '') query.status = params.status;
  if (params.agentId !== '') query.agent_id = params.agentId;
  return query;
}

/**
 * The query string for another component's page: every parameter but refererId and status is kept, and
 * `refererId` names the component the user drilled down from, when there is one.
 */
export function componentSearch(search: URLSearchParams, refererId?: string): string {
  const next = new URLSearchParams(search);
  for (const name of DROPPED_ON_NAVIGATION) next.delete(name);
  if (refererId !== undefined) next.set('refererId', refererId);
  const text = next.toString();
  return text === '' ? '' : `?${text}`;
}

export function componentHref(id: string, search: URLSearchParams, refererId?: string): string {
  return `/topology/${encodeURIComponent(id)}${componentSearch(search, refererId)}`;
}

/** The page's filters and sort, kept in the query string (DESIGN §6). */
export function useTopologyParams() {
  const [search, setSearch] = useSearchParamsUpdate();
  const params = useMemo(() => parseTopologyParams(search), [search]);
  const update = useCallback(
    (changes: TopologyParamChanges) => setSearch((current) => applyTopologyParams(current, changes)),
    [setSearch],
  );
  return { params, search, update };
}
