import { apiErrors } from '../api-errors';
import { LIMITS } from '../limits';
import type { Condition, Field, FilterNode, JsonStep } from '../parse/filter-grammar';
import type { ParsedQuery } from '../parse/query-string';
import type { OrderTerm, SelectItem } from '../parse/select-grammar';
import type { Relation, SchemaCache } from '../schema-cache';
import { qualified } from '../build-sql';
import { resolveRelationship, type Join } from './relationships';
import { readSource, redactedColumns } from './sealed-columns';

export type Access = 'read' | 'write';

/** Throws when the signed-in user may not perform `access` on the named table or view. */
export type Authorize = (relation: string, access: Access) => void;

export interface PlannedColumn {
  kind: 'column';
  column: string;
  path: JsonStep[];
  cast: string | null;
  outputName: string;
}

export interface PlannedEmbed {
  kind: 'embed';
  /** Null for an embed that only filters, `team()`, which adds no key to the output. */
  outputName: string | null;
  toOne: boolean;
  inner: boolean;
  join: Join;
  node: ReadNode;
}

export interface PlannedOrder {
  field: Field;
  descending: boolean;
  nulls: 'first' | 'last' | null;
  /** A related order reads the column from this to-one embed. */
  embed: PlannedEmbed | null;
}

/** Existence filters on an embed: `team=is.null` / `team=not.is.null`. */
export interface EmbedExistence {
  kind: 'exists';
  embed: PlannedEmbed;
  exists: boolean;
}

export interface ReadNode {
  relation: Relation;
  /** Columns this reader gets with every sealed secret emptied (sealed-columns.ts). */
  redacted: string[];
  /** The FROM item the rows are read from: the relation, or a subquery that redacts `redacted`. */
  source: string;
  alias: string;
  items: Array<PlannedColumn | PlannedEmbed>;
  filters: FilterNode[];
  existence: EmbedExistence[];
  order: PlannedOrder[];
  limit: number | null;
  offset: number | null;
}

function outputNameOf(field: Field): string {
  const last = field.path[field.path.length - 1];
  return last === undefined ? field.column : last.key;
}

export interface PlanContext {
  cache: SchemaCache;
  authorize: Authorize;
  nextAlias: () => string;
}

export function aliasCounter(): () => string {
  let n = 0;
  return () => `t${n++}`;
}

function checkColumn(relation: Relation, column: string): void {
  if (!relation.columns.has(column)) throw apiErrors.undefinedColumn(relation.name, column);
}

function checkFilters(relation: Relation, nodes: FilterNode[]): void {
  for (const node of nodes) {
    if (node.kind === 'condition') checkColumn(relation, node.field.column);
    else checkFilters(relation, node.children);
  }
}

function embedKey(embed: PlannedEmbed, item: { alias: string | null; relation: string }): string {
  return embed.outputName ?? item.alias ?? item.relation;
}

/**
 * Resolves a parsed select tree against the schema cache: every column must exist (secrets never do), every embed
 * must follow a foreign key, and every table touched is authorized for reading.
 */
function planRead(
  ctx: PlanContext,
  relation: Relation,
  select: SelectItem[],
  query: ParsedQuery,
  path: string,
  depth: number,
  used: Set<string>,
): ReadNode {
  if (depth > LIMITS.maxEmbedDepth) throw apiErrors.tooDeep(LIMITS.maxEmbedDepth);
  ctx.authorize(relation.name, 'read');
  used.add(path);
  const redacted = redactedColumns(relation, ctx.authorize);
  const node: ReadNode = {
    relation,
    redacted,
    source: readSource(qualified(relation.name), relation, redacted),
    alias: ctx.nextAlias(),
    items: [],
    filters: [],
    existence: [],
    order: [],
    limit: null,
    offset: null,
  };
  const embeds = new Map<string, PlannedEmbed>();
  for (const item of select) {
    if (item.kind === 'star') {
      for (const column of relation.columns.keys()) node.items.push({ kind: 'column', column, path: [], cast: null, outputName: column });
    } else if (item.kind === 'column') {
      checkColumn(relation, item.field.column);
      node.items.push({ kind: 'column', column: item.field.column, path: item.field.path, cast: item.cast, outputName: item.alias ?? outputNameOf(item.field) });
    } else {
      const rel = resolveRelationship(ctx.cache, relation.name, item.relation, item.hint);
      const child = ctx.cache.relations.get(rel.target);
      if (child === undefined) throw apiErrors.noRelationship(relation.name, item.relation);
      if (rel.join.junction !== null) ctx.authorize(rel.join.junction.table, 'read');
      const key = item.alias ?? item.relation;
      const childPath = path === '' ? key : `${path}.${key}`;
      const embed: PlannedEmbed = {
        kind: 'embed',
        outputName: item.items.length === 0 ? null : key,
        toOne: rel.toOne,
        inner: item.inner,
        join: rel.join,
        node: planRead(ctx, child, item.items, query, childPath, depth + 1, used),
      };
      embeds.set(embedKey(embed, item), embed);
      node.items.push(embed);
    }
  }
  const modifiers = query.modifiers.get(path);
  if (modifiers !== undefined) {
    for (const filter of modifiers.filters) {
      const embed = filter.kind === 'condition' && filter.field.path.length === 0 ? embeds.get(filter.field.column) : undefined;
      if (embed !== undefined && filter.kind === 'condition' && !relation.columns.has(filter.field.column)) {
        node.existence.push(existenceFilter(embed, filter));
        continue;
      }
      checkFilters(relation, [filter]);
      node.filters.push(filter);
    }
    node.order = (modifiers.order ?? []).map((term) => planOrder(relation, embeds, term));
    node.limit = modifiers.limit === null ? null : Math.min(modifiers.limit, LIMITS.maxRows);
    node.offset = modifiers.offset;
  }
  return node;
}

function existenceFilter(embed: PlannedEmbed, filter: Condition): EmbedExistence {
  if (filter.operator !== 'is' || filter.value !== 'null') throw apiErrors.embedFilterOperator();
  return { kind: 'exists', embed, exists: filter.negated };
}

function planOrder(relation: Relation, embeds: Map<string, PlannedEmbed>, term: OrderTerm): PlannedOrder {
  if (term.relation === null) {
    checkColumn(relation, term.field.column);
    return { field: term.field, descending: term.descending, nulls: term.nulls, embed: null };
  }
  const embed = embeds.get(term.relation);
  if (embed === undefined) throw apiErrors.filterNotEmbedded(term.relation);
  if (!embed.toOne) throw apiErrors.relatedOrderNotToOne(relation.name, term.relation);
  checkColumn(embed.node.relation, term.field.column);
  return { field: term.field, descending: term.descending, nulls: term.nulls, embed };
}

/**
 * The request's select tree planned from its target, with the filters, order and paging of every resource in it.
 * Modifiers addressed to an embed that is not in the select are an error, as in PostgREST (PGRST108).
 */
export function planSelection(ctx: PlanContext, relation: Relation, query: ParsedQuery): ReadNode {
  const used = new Set<string>();
  const root = planRead(ctx, relation, query.select, query, '', 0, used);
  for (const path of query.modifiers.keys()) {
    if (!used.has(path)) throw apiErrors.filterNotEmbedded(path);
  }
  return root;
}

/** True when the top level carries at least one filter, which PATCH and DELETE require. */
export function hasRootFilter(node: ReadNode): boolean {
  return node.filters.length > 0 || node.existence.length > 0;
}
