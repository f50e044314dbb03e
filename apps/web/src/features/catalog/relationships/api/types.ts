import type { TableRow } from '@opsdeck/shared';

export type RelationDirection = 'outgoing' | 'incoming';

/** A row of related_configs_recursive (migration 0081), with the columns the tab reads. */
export interface RelatedConfigRow {
  id: string;
  name: string;
  type: string;
  config_class: string | null;
  status: string | null;
  health: string | null;
  deleted_at: string | null;
  /** The items one step nearer to the walk's start that lead to this one. */
  related_ids: string[];
  direction: RelationDirection;
  depth: number;
  /** 'child' and 'parent' come from the parent tree (hard); any other name is a link between items (soft). */
  relation: string;
}

/** One related item after the two walks of type_filter=all are merged. */
export interface RelatedConfig extends Omit<RelatedConfigRow, 'direction'> {
  directions: RelationDirection[];
}

/**
 * An item as the graph draws it: the tab's own item (a configs row) or one of related_configs_recursive's rows, whose
 * health the function returns as text; so a node is not one relation's row.
 */
export interface ConfigNodeItem {
  id: string;
  name: string;
  type: string;
  health: string | null;
  status: string | null;
  deleted_at: string | null;
}

/** A link a person made between this item and another (config_relationships with selector_id 'manual'). */
export type ManualLink = Pick<TableRow<'config_relationships'>, 'config_id' | 'related_id'>;
