import { CHECK_HEALTHS, decodeTristate } from '@opsdeck/shared';

/** Spec 002 §9: related configs are walked at most 10 steps, which is also the default. */
export const RELATIONSHIP_MAX_DEPTH = 10;
export const CONFIG_HEALTHS = CHECK_HEALTHS;

export type RelationshipView = 'table' | 'graph';
export type GraphLayoutDirection = 'horizontal' | 'vertical';
export type GraphCurve = 'bezier' | 'step' | 'straight';
export const GRAPH_CURVES: readonly GraphCurve[] = ['bezier', 'step', 'straight'];

/** Everything the tab keeps in its query string, with the defaults an absent parameter means. */
export interface RelationshipParams {
  outgoing: boolean;
  incoming: boolean;
  /** Off walks only the parent tree (hard links); on adds the links between items (config_relationships). */
  soft: boolean;
  /** Tristate selections in the shared codec's URL form. */
  type: string;
  health: string;
  status: string;
  depth: number;
  showDeleted: boolean;
  view: RelationshipView;
  layout: GraphLayoutDirection;
  curve: GraphCurve;
}

function flag(search: URLSearchParams, name: string, fallback: boolean): boolean {
  const value = search.get(name);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

function oneOf<T extends string>(value: string | null, choices: readonly T[], fallback: T): T {
  return choices.find((choice) => choice === value) ?? fallback;
}

export function parseRelationshipParams(search: URLSearchParams): RelationshipParams {
  const incoming = flag(search, 'incoming', false);
  // Spec 002 §4: with Incoming off, Outgoing is on whatever the URL says, so the walk always has a direction.
  const outgoing = incoming ? flag(search, 'outgoing', true) : true;
  const depth = Number.parseInt(search.get('depth') ?? '', 10);
  return {
    outgoing,
    incoming,
    soft: flag(search, 'soft', false),
    type: search.get('type') ?? '',
    health: search.get('health') ?? '',
    status: search.get('status') ?? '',
    depth: Number.isInteger(depth) && depth >= 1 && depth <= RELATIONSHIP_MAX_DEPTH ? depth : RELATIONSHIP_MAX_DEPTH,
    showDeleted: flag(search, 'showDeleted', false),
    view: oneOf(search.get('view'), ['table', 'graph'] as const, 'table'),
    layout: oneOf(search.get('layout'), ['horizontal', 'vertical'] as const, 'horizontal'),
    curve: oneOf(search.get('curve'), GRAPH_CURVES, 'bezier'),
  };
}

/**
 * The query-string changes for a direction toggle under the rules of spec 002 §4: turning Incoming off turns
 * Outgoing back on, and Outgoing cannot be turned off while Incoming is off (null means "no change").
 */
export function directionToggle(current: RelationshipParams, toggle: 'outgoing' | 'incoming', checked: boolean): Record<string, string | null> | null {
  if (toggle === 'incoming') return checked ? { incoming: 'true' } : { incoming: null, outgoing: null };
  if (!checked && !current.incoming) return null;
  return { outgoing: checked ? null : 'false' };
}

export interface RelatedConfigsArgs {
  config_id: string;
  type_filter: 'outgoing' | 'incoming' | 'all';
  include_deleted_configs: boolean;
  max_depth: number;
  incoming_relation: 'hard' | 'both';
  outgoing_relation: 'hard' | 'both';
  type?: string[];
  status?: string[];
  health?: string[];
}

/** Values a tristate selection includes and excludes. */
export function splitTristate(value: string): { include: string[]; exclude: string[] } {
  const entries = Object.entries(decodeTristate(value));
  return {
    include: entries.filter(([, state]) => state === 1).map(([key]) => key),
    exclude: entries.filter(([, state]) => state === -1).map(([key]) => key),
  };
}

/**
 * The arguments of related_configs_recursive. The function only narrows to listed values, so included types,
 * statuses and healths go to the server and excluded ones are dropped from its rows on the client.
 */
export function relatedConfigsArgs(configId: string, params: RelationshipParams): RelatedConfigsArgs {
  const relation = params.soft ? 'both' : 'hard';
  const args: RelatedConfigsArgs = {
    config_id: configId,
    type_filter: params.incoming && params.outgoing ? 'all' : params.incoming ? 'incoming' : 'outgoing',
    include_deleted_configs: params.showDeleted,
    max_depth: params.depth,
    incoming_relation: relation,
    outgoing_relation: relation,
  };
  for (const name of ['type', 'status', 'health'] as const) {
    const { include } = splitTristate(params[name]);
    if (include.length > 0) args[name] = include;
  }
  return args;
}
