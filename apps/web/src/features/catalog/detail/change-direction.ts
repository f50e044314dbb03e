import type { CatalogChangesRequest } from '@opsdeck/shared';

/** Spec 002 §2.1: the item's Changes tab starts with its downstream items' changes and without upstream ones. */
export const UPSTREAM_PARAM = 'upstream';
export const DOWNSTREAM_PARAM = 'downstream';

export interface ChangeDirections {
  upstream: boolean;
  downstream: boolean;
}

/** Only a value away from the default is written, so `upstream=true` and `downstream=false` are all the URL holds. */
export function readDirections(search: URLSearchParams): ChangeDirections {
  return { upstream: search.get(UPSTREAM_PARAM) === 'true', downstream: search.get(DOWNSTREAM_PARAM) !== 'false' };
}

/** Both ways walk every related item, one way walks that way only, and neither keeps to the item itself. */
export function directionBody({ upstream, downstream }: ChangeDirections): Pick<Partial<CatalogChangesRequest>, 'recursive' | 'type_filter'> {
  if (upstream && downstream) return { recursive: true, type_filter: 'all' };
  if (downstream) return { recursive: true, type_filter: 'downstream' };
  if (upstream) return { recursive: true, type_filter: 'upstream' };
  return { recursive: false };
}
