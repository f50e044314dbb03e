import type { RelatedConfig } from '../api/types';

/** 'child' and 'parent' are the parent tree's links (hard); every other relation is a link between items (soft). */
export function isHardRelation(relation: string): boolean {
  return relation === 'child' || relation === 'parent';
}

/** How the row reads in the Relation column, e.g. 'soft · outgoing (ServicePod)'. */
export function relationLabel(item: Pick<RelatedConfig, 'relation' | 'directions'>): string {
  const kind = isHardRelation(item.relation) ? 'hard' : 'soft';
  const direction = item.directions.length > 1 ? 'both ways' : (item.directions[0] ?? 'outgoing');
  const name = isHardRelation(item.relation) || item.relation === '' ? '' : ` (${item.relation})`;
  return `${kind} · ${direction}${name}`;
}
