import type { ComponentProperty } from '@opsdeck/shared';

/**
 * The contract between the topology spec (spec.ts, build-tree.ts), the run that stores what a spec builds
 * (run-topology.ts) and the rest of the server.
 */

/** A `selector` of a component's `checks` entry: canary checks by name and/or labels (`a=b,c=d`), namespace. */
export interface CheckSelector {
  name?: string;
  namespace?: string;
  /** `key=value` pairs joined by commas; every pair must match the check's labels. */
  labelSelector?: string;
  types?: string[];
  /**
   * An inline canary (`checks[].inline`): its key in the spec (`spec.components[0].checks[1]`), the name of the
   * component that holds it and the canary spec. The run keeps a canary of it owned by the topology and attaches its checks.
   */
  inline?: InlineCanary;
}

export interface InlineCanary {
  key: string;
  owner: string;
  spec: Record<string, unknown>;
}

/** A catalog selector (a `configs` entry, a `lookup.catalog[].selector` entry, a `configLookup.config`). */
export interface ConfigSelector {
  id?: string[];
  name?: string;
  namespace?: string;
  /** Config types, `Class::Subtype`; `type` (one) is folded into it when parsing. */
  types?: string[];
  /** Tags that must all match (`tags` map and `tagSelector` `a=b,c=d` both fold into this). */
  tags?: Record<string, string>;
  /** Labels that must all match (`labelSelector` `a=b,c=d`). */
  labels?: Record<string, string>;
}

/**
 * A component selector (`selectors[]`): the other live components a run lists under the component. `agent` null means
 * every agent's; left out, only this server's own (agent_id null), as Mission Control reads an empty agent.
 */
export interface ComponentSelector {
  id?: string[];
  name?: string;
  namespace?: string;
  types?: string[];
  statuses?: string[];
  /** `key=value` pairs, or a bare key that must exist, joined by commas. */
  labelSelector?: string;
  agent?: string | null;
}

/** A catalog item as a lookup or selector sees it. */
export interface ConfigRow {
  id: string;
  name: string;
  type: string;
  config_class: string | null;
  health: string | null;
  status: string | null;
  tags: Record<string, string>;
  labels: Record<string, string>;
  /** The item's content (parsed JSON), for `configLookup.field` JSONPath. */
  config: unknown;
  /**
   * The rest of what canary-checker's catalog check gives a display or test (duty's ConfigItem as JSON), read from the
   * catalog; absent on the stand-in row a check lookup's component is templated from. Times are RFC 3339 text.
   */
  description?: string | null;
  ready?: boolean | null;
  external_id?: string[];
  agent_id?: string | null;
  scraper_id?: string | null;
  parent_id?: string | null;
  path?: string;
  properties?: unknown;
  source?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface CheckRow {
  id: string;
  canary_id: string | null;
  name: string;
}

/** What one check lookup gave: its display output, or why it failed. */
export type LookupOutcome = { pass: true; output: string } | { pass: false; error: string };

/** What the tree builder may ask of the database; run-topology.ts implements it with bound SQL. */
export interface TopologySources {
  findConfigs(selector: ConfigSelector): Promise<ConfigRow[]>;
  findChecks(selector: CheckSelector): Promise<CheckRow[]>;
  /** The distinct values of a tag on live catalog items, among those `selector` matches when given (`groupBy`). */
  findTagValues(tag: string, selector: ConfigSelector | null, classes: readonly string[] | null): Promise<string[]>;
  /** Runs a check lookup (absent where checks cannot run, e.g. inside the demo seed's transaction). */
  runLookup?(type: string, spec: Record<string, unknown>): Promise<LookupOutcome>;
}

/** What a spec says of one component in itself, alike as parsed (spec.ts) and as built. */
export interface ComponentFields {
  type?: string;
  icon?: string;
  text?: string;
  description?: string;
  owner?: string;
  lifecycle?: string;
  namespace?: string;
  hidden: boolean;
  labels: Record<string, string>;
}

/**
 * One component a spec builds. `key` is unique within the topology and stable across runs (an explicit `id`/
 * `externalID`, the config id of a looked-up item, else the path of names from the root): the run matches stored
 * components by it (`components.external_id`) so ids, links and history survive a rerun.
 */
export interface ComponentDraft extends ComponentFields {
  key: string;
  name: string;
  properties: ComponentProperty[];
  /** Checks the spec attaches (already resolved from selectors). `selectorId` says which selector found each. */
  checks: { checkId: string; canaryId: string | null; selectorId: string }[];
  /** Config items the spec attaches, and for a looked-up component the item it was made from. */
  configs: { configId: string; selectorId: string }[];
  /** CEL over the component's summary giving its status, worked out by the store once the tree's summaries are in. */
  statusExpr?: string;
  /** The reason a lookup's display gave with the status it set (stored as status_reason; null without one). */
  statusReason?: string;
  /** Component selectors, resolved by the store once the tree is written (it may select components of this run). */
  selectors: { selector: ComponentSelector; selectorId: string }[];
  children: ComponentDraft[];
}

/**
 * What build-tree.ts returns: the root component (named after the topology), or with `groupBy` one root per value
 * (named `<topology> (<value>)`), and what went wrong on the way.
 */
export interface BuiltTopology {
  roots: ComponentDraft[];
  /** Problems that did not stop the build (a lookup matching nothing is not one); they go to job_history. */
  errors: string[];
}

/** A stored topology row, as the scheduler and Run Now load it. */
export interface TopologyRow {
  id: string;
  name: string;
  namespace: string;
  icon: string | null;
  labels: Record<string, string>;
  spec: unknown;
  schedule: string | null;
  agent_id: string | null;
}

/** The GUC run-topology.ts sets (transaction-local) while it writes a tree: the rollup triggers stand aside, and the
 * run calls `topology_refresh_tree(topology_id)` once at the end. */
export const TOPOLOGY_BUILD_SETTING = 'opsdeck.topology_build';
