import type { FunctionRow, RowWith, TableRow, ViewRow } from '@opsdeck/shared';

export type RelationDirection = 'outgoing' | 'incoming';

/**
 * A row of related_configs_recursive (migration 0081), with the columns the tab reads: `related_ids` are the items one
 * step nearer to the walk's start that lead to this one; a `relation` of 'child' or 'parent' comes from the parent tree
 * (hard), any other name is a link between items (soft). The function's record type leaves those three columns
 * nullable, but its walk always sets them, and `direction` is one of its two walks.
 */
export type RelatedConfigRow = RowWith<
  Pick<
    FunctionRow<'related_configs_recursive'>,
    'id' | 'name' | 'type' | 'config_class' | 'status' | 'health' | 'deleted_at' | 'related_ids' | 'direction' | 'depth' | 'relation'
  >,
  { related_ids: string[]; direction: RelationDirection; relation: string }
>;

/** One related item after the two walks of type_filter=all are merged. */
export interface RelatedConfig extends Omit<RelatedConfigRow, 'direction'> {
  directions: RelationDirection[];
}

/**
 * An item as the graph draws it: the tab's own item (a configs row) or one of related_configs_recursive's rows, which
 * carry the same columns.
 */
export type ConfigNodeItem = Pick<ViewRow<'configs'>, 'id' | 'name' | 'type' | 'health' | 'status' | 'deleted_at'>;

/** A link a person made between this item and another (config_relationships with selector_id 'manual'). */
export type ManualLink = Pick<TableRow<'config_relationships'>, 'config_id' | 'related_id'>;
