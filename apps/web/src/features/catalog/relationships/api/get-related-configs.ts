import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CATALOG_STALE_TIME_MS } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { splitTristate, type RelatedConfigsArgs, type RelationshipParams } from '../relationship-params';
import { relationshipKeys } from './keys';
import type { RelatedConfig, RelatedConfigRow } from './types';

const RELATED_SELECT = 'id,name,type,config_class,status,health,deleted_at,related_ids,direction,depth,relation';

/**
 * With type_filter=all the function walks each direction on its own, so an item reached both ways comes twice; it
 * is kept once, at its nearest depth, remembering both directions and every item that leads to it.
 */
export function dedupeRelated(rows: readonly RelatedConfigRow[]): RelatedConfig[] {
  const byId = new Map<string, RelatedConfig>();
  for (const { direction, ...row } of rows) {
    const seen = byId.get(row.id);
    if (seen === undefined) {
      byId.set(row.id, { ...row, related_ids: [...row.related_ids], directions: [direction] });
      continue;
    }
    if (!seen.directions.includes(direction)) seen.directions.push(direction);
    if (row.depth < seen.depth) {
      seen.depth = row.depth;
      seen.relation = row.relation;
      seen.related_ids = [...new Set([...row.related_ids, ...seen.related_ids])];
    } else {
      seen.related_ids = [...new Set([...seen.related_ids, ...row.related_ids])];
    }
  }
  return [...byId.values()];
}

/** Drops the rows whose type, status or health the filters exclude; the function itself only narrows to a list. */
export function withoutExcluded(items: readonly RelatedConfig[], params: Pick<RelationshipParams, 'type' | 'status' | 'health'>): RelatedConfig[] {
  const excluded = {
    type: new Set(splitTristate(params.type).exclude),
    status: new Set(splitTristate(params.status).exclude),
    health: new Set(splitTristate(params.health).exclude),
  };
  return items.filter(
    (item) => !excluded.type.has(item.type) && !excluded.status.has(item.status ?? '') && !excluded.health.has(item.health ?? ''),
  );
}

/** A PostgreSQL array literal, each element quoted so commas and braces inside a value stay part of it. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')}}`;
}

/** The GET form of the call (spec 002 §7), arguments as query parameters next to select and order. */
export function relatedConfigsUrl(args: RelatedConfigsArgs): string {
  const query = new URLSearchParams({ select: RELATED_SELECT, order: 'depth,name' });
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    query.set(name, Array.isArray(value) ? arrayLiteral(value) : String(value));
  }
  return `/api/db/rpc/related_configs_recursive?${query.toString()}`;
}

export async function getRelatedConfigs(args: RelatedConfigsArgs, signal?: AbortSignal): Promise<RelatedConfig[]> {
  return dedupeRelated(await requestJson<RelatedConfigRow[]>(relatedConfigsUrl(args), { signal }));
}

export function useRelatedConfigsQuery(args: RelatedConfigsArgs) {
  return useQuery({
    queryKey: relationshipKeys.related(args),
    queryFn: ({ signal }) => getRelatedConfigs(args, signal),
    placeholderData: keepPreviousData,
    staleTime: CATALOG_STALE_TIME_MS,
  });
}
