import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PlaybookResourceSelector, PlaybookTargetType } from '@opsdeck/shared';
import { silentDynamicDb } from '@/lib/api/db';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

/** What a picker can choose: a run's target or a team, people, component, config or check parameter. */
export type PlaybookResourceKind = 'config' | 'component' | 'check' | 'team' | 'people';

export interface PlaybookResourceOption {
  id: string;
  name: string;
  /** The type of a config, component or check; a person's email. */
  detail: string | null;
}

/** How many matches a picker lists; typing narrows a longer list. */
export const RESOURCE_SEARCH_LIMIT = 50;

const SOURCES: Record<PlaybookResourceKind, { table: string; detail: string | null }> = {
  config: { table: 'config_items', detail: 'type' },
  component: { table: 'components', detail: 'type' },
  check: { table: 'checks', detail: 'type' },
  team: { table: 'teams', detail: null },
  people: { table: 'people', detail: 'email' },
};

function columns(kind: PlaybookResourceKind): string {
  const { detail } = SOURCES[kind];
  return detail === null ? 'id,name' : `id,name,${detail}`;
}

function toOption(kind: PlaybookResourceKind, row: Record<string, unknown>): PlaybookResourceOption {
  const { detail } = SOURCES[kind];
  const value = detail === null ? null : row[detail];
  return { id: String(row.id), name: String(row.name), detail: typeof value === 'string' ? value : null };
}

/** `%`, `_` and `\` are LIKE wildcards and its escape: typed, they mean themselves. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * The types every selector allows, when each names types exactly; otherwise null (a selector without types allows any
 * type, a glob such as `Kubernetes::*` or an exclusion `!X` is no exact list, and the server's own check of the target
 * decides the rest).
 */
export function selectorTypes(selectors: readonly PlaybookResourceSelector[] | undefined): string[] | null {
  if (selectors === undefined || selectors.length === 0) return null;
  if (selectors.some((selector) => selector.types === undefined || selector.types.length === 0)) return null;
  const types = [...new Set(selectors.flatMap((selector) => selector.types ?? []))].sort();
  return types.some((type) => type.includes('*') || type.startsWith('!')) ? null : types;
}

export interface ResourceSearch {
  kind: PlaybookResourceKind;
  search: string;
  /** Only these types (configs, components and checks). */
  types: string[] | null;
  /**
   * The playbook whose run target is being picked: the server then lists only the resources its selectors offer it on
   * (GET /api/playbook/{id}/targets), as a run would accept them.
   */
  targetOf?: string;
}

function isTargetKind(kind: PlaybookResourceKind): kind is PlaybookTargetType {
  return kind === 'config' || kind === 'component' || kind === 'check';
}

/** Live resources of a kind whose name contains the search, by name, at most RESOURCE_SEARCH_LIMIT. */
export async function searchPlaybookResources({ kind, search, types, targetOf }: ResourceSearch, signal?: AbortSignal): Promise<PlaybookResourceOption[]> {
  if (targetOf !== undefined && isTargetKind(kind)) {
    const query = new URLSearchParams({ type: kind, search: search.trim() });
    return requestJson<PlaybookResourceOption[]>(`/api/playbook/${encodeURIComponent(targetOf)}/targets?${query}`, { signal, silent: true });
  }
  const source = SOURCES[kind];
  let query = silentDynamicDb.from(source.table).select(columns(kind)).is('deleted_at', null);
  const text = search.trim();
  if (text !== '') query = query.ilike('name', `*${likeLiteral(text)}*`);
  if (types !== null && source.detail === 'type') query = query.in('type', types);
  const request = query.order('name').limit(RESOURCE_SEARCH_LIMIT);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError().overrideTypes<Record<string, unknown>[], { merge: false }>();
  return data.map((row) => toOption(kind, row));
}

/** One resource by id, for a picker showing a chosen value it did not list. */
export async function getPlaybookResource(kind: PlaybookResourceKind, id: string, signal?: AbortSignal): Promise<PlaybookResourceOption | null> {
  const query = silentDynamicDb.from(SOURCES[kind].table).select(columns(kind)).eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<Record<string, unknown>[], { merge: false }>();
  const row = data[0];
  return row === undefined ? null : toOption(kind, row);
}

export function useResourceSearchQuery(search: ResourceSearch, enabled: boolean) {
  return useQuery({
    queryKey: [...playbookKeys.all, 'resources', search.kind, search.search.trim(), search.types, search.targetOf ?? null],
    queryFn: ({ signal }) => searchPlaybookResources(search, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePlaybookResourceQuery(kind: PlaybookResourceKind, id: string | null) {
  return useQuery({
    queryKey: [...playbookKeys.all, 'resource', kind, id],
    queryFn: ({ signal }) => getPlaybookResource(kind, id ?? '', signal),
    enabled: id !== null && id !== '',
  });
}
