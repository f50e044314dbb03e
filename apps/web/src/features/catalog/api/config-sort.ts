/** Columns of config_items the flat table sorts by; the computed changes and analysis columns would scan every row. */
export const CONFIG_SORT_COLUMNS = [
  'type',
  'name',
  'status',
  'health',
  'created_at',
  'updated_at',
  'cost_total_1d',
  'cost_total_7d',
  'cost_total_30d',
] as const;

export type ConfigSortColumn = (typeof CONFIG_SORT_COLUMNS)[number];

export function isConfigSortColumn(value: string): value is ConfigSortColumn {
  return (CONFIG_SORT_COLUMNS as readonly string[]).includes(value);
}

/** A search's order when the user has not chosen a column: best match first (rpc/search_configs, migration 0083). */
export const RANK_SORT = 'rank';
