/**
 * Topology (spec 001 §2.9, §3, §4, §9; spec 002 §7): component health, card sizes and the shape of
 * `GET /api/topology`, shared by the server that answers it and the pages that draw it.
 */

/** Component health of spec 001 §4; `unknown` is a component nothing reports on. */
export const COMPONENT_STATUSES = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

/** Worst first: a component's status is the worst of its checks, configs and children (issue #13). */
export const COMPONENT_STATUS_RANK: Readonly<Record<ComponentStatus, number>> = { unhealthy: 3, warning: 2, healthy: 1, unknown: 0 };

export function isComponentStatus(value: unknown): value is ComponentStatus {
  return typeof value === 'string' && (COMPONENT_STATUSES as readonly string[]).includes(value);
}

/** The worse of two statuses (unhealthy > warning > healthy > unknown). */
export function worseStatus(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  return COMPONENT_STATUS_RANK[b] > COMPONENT_STATUS_RANK[a] ? b : a;
}

/** Spec 001 §9: card widths in px per size; small and medium show compact headline metrics. */
export const TOPOLOGY_CARD_SIZES = { small: 198, medium: 258, large: 356, extra_large: 554 } as const;
export type TopologyCardSize = keyof typeof TOPOLOGY_CARD_SIZES;
export const TOPOLOGY_VIEW_TYPES = ['summary', 'detailed'] as const;
export type TopologyViewType = (typeof TOPOLOGY_VIEW_TYPES)[number];
/** Spec 001 §2.9: the card-width slider. */
export const TOPOLOGY_CARD_WIDTH = { min: 250, max: 768, step: 2 } as const;
/** Spec 001 §9. */
export const TOPOLOGY_PROPERTIES_BEFORE_MORE = 6;
export const TOPOLOGY_SUMMARIES_BEFORE_MORE = 5;
export const TOPOLOGY_LIST_MAX_HEIGHT_PX = 200;
export const TOPOLOGY_AVATARS_SHOWN = 5;
export const TOPOLOGY_CONFIG_SEARCH_LIMIT = 50;

export interface ComponentPropertyLink {
  type?: string;
  url: string;
  text?: string;
  label?: string;
  icon?: string;
  tooltip?: string;
}

/** One entry of `components.properties` (spec 001 §3). `value` is numeric; `text` is what a text property shows. */
export interface ComponentProperty {
  name: string;
  label?: string;
  type?: string;
  text?: string;
  value?: number;
  min?: number;
  max?: number;
  unit?: string;
  icon?: string;
  color?: string;
  tooltip?: string;
  headline?: boolean;
  hidden?: boolean;
  order?: number;
  links?: ComponentPropertyLink[];
  namespace?: string;
}

/** Counts by health of the checks a component (and everything under it) holds. */
export interface ComponentCheckCounts {
  healthy: number;
  unhealthy: number;
  warning: number;
  unknown: number;
}

/**
 * `components.summary`, kept current by the database when an input changes (never computed on read). Covers the
 * component and everything under it: open incidents by type then severity, open insights by analysis type then
 * severity.
 */
export interface ComponentSummary {
  checks: ComponentCheckCounts;
  incidents: Record<string, Record<string, number>>;
  insights: Record<string, Record<string, number>>;
}

export interface ComponentCheckRef {
  id: string;
  name: string;
  icon: string | null;
  type: string | null;
  status: string | null;
}

export interface ComponentTeamRef {
  id: string;
  name: string;
  icon: string | null;
}

/**
 * A component as a row inside its parent's card: the level under the cards carries only what a row shows, so a page of
 * 50 cards over 5,000 components stays small.
 */
export interface TopologyComponentRow {
  id: string;
  parent_id: string | null;
  /** Dot-separated ancestor ids, root first; '' for a root. */
  path: string;
  name: string;
  icon: string | null;
  type: string | null;
  status: ComponentStatus;
  status_reason: string | null;
  hidden: boolean;
  is_leaf: boolean;
}

/** One component as `GET /api/topology` returns it (spec 001 §3 "Topology component"). */
export interface TopologyComponent extends TopologyComponentRow {
  topology_id: string | null;
  text: string | null;
  description: string | null;
  owner: string | null;
  lifecycle: string | null;
  namespace: string | null;
  agent_id: string | null;
  external_id: string | null;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  summary: ComponentSummary;
  /** Checks linked to this component itself (not its children). */
  checks: ComponentCheckRef[];
  teams: ComponentTeamRef[];
  /** Whether the component has log selectors (the card's logs link, spec 000 §6). */
  logs: boolean;
  cost_per_minute: number | null;
  cost_total_1d: number | null;
  cost_total_7d: number | null;
  cost_total_30d: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /**
   * Children, unhealthy first, then warning, healthy, unknown; then by name: whole components under the component asked
   * for by `id` (they are the cards), rows under a card. Absent below that.
   */
  components?: Array<TopologyComponent | TopologyComponentRow>;
}

/** True for a whole component, false for a row (the level under the cards). */
export function isWholeComponent(component: TopologyComponent | TopologyComponentRow): component is TopologyComponent {
  return 'summary' in component;
}

/**
 * `GET /api/topology` (spec 002 §7). Without `id`: the root component of every topology (the cards), each with its
 * children as rows. With `id`: that component alone, with its children (the cards) and theirs as rows. Filters (type, team,
 * labels, status, agent_id) apply to the level the page draws as cards: the roots without `id`, the children of `id`
 * with it. `healthStatuses`, `tags`, `teams` and `types` describe that level before filtering, for the filter menus.
 */
export interface TopologyResponse {
  components: TopologyComponent[];
  healthStatuses: ComponentStatus[];
  /** Label key → its values, sorted. */
  tags: Record<string, string[]>;
  /** Team names. */
  teams: string[];
  types: string[];
}

/** Query parameters of `GET /api/topology`. `labels` is `key=value` pairs joined by commas; `team` a team name. */
export interface TopologyQuery {
  id?: string;
  type?: string;
  team?: string;
  labels?: string;
  status?: string;
  agent_id?: string;
}

/** Spec 001 §2.9: the snapshot dialog's time ranges; the first is the default. `start` of the snapshot call. */
export const SNAPSHOT_RANGES = [
  { label: 'Last 1 hour', start: '1h' },
  { label: 'Last 6 hours', start: '6h' },
  { label: 'Last 24 hours', start: '24h' },
  { label: 'Last 3 days', start: '3d' },
  { label: 'Last 7 days', start: '7d' },
] as const;
