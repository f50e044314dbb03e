import type { RowWith, TableRow, ViewRow } from '@opsdeck/shared';

/**
 * A row of the `configs` view as the flat table selects it (spec 002 §3 config item, without content): `changes` counts
 * the last 30 days, `analysis` the open insights per analysis type.
 */
export type ConfigListItem = RowWith<
  Pick<
    ViewRow<'configs'>,
    | 'id' | 'name' | 'type' | 'config_class' | 'status' | 'health' | 'labels' | 'tags' | 'created_at' | 'updated_at' | 'deleted_at'
    | 'last_scraped_time' | 'cost_total_1d' | 'cost_total_7d' | 'cost_total_30d' | 'changes' | 'analysis'
  >,
  { labels: Record<string, string> | null; tags: Record<string, string> | null; analysis: Record<string, number> | null }
> & { agent: Pick<TableRow<'agents'>, 'id' | 'name'> | null };

export interface ConfigPage {
  rows: ConfigListItem[];
  totalCount: number;
}
