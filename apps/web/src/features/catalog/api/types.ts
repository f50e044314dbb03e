/** A row of the `configs` view as the flat table selects it (spec 002 §3 config item, without content). */
export interface ConfigListItem {
  id: string;
  name: string;
  type: string;
  config_class: string;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  last_scraped_time: string | null;
  cost_total_1d: number | null;
  cost_total_7d: number | null;
  cost_total_30d: number | null;
  /** Changes of the last 30 days. */
  changes: number;
  /** Open insights per analysis type. */
  analysis: Record<string, number> | null;
  agent: { id: string; name: string } | null;
}

export interface ConfigPage {
  rows: ConfigListItem[];
  totalCount: number;
}
