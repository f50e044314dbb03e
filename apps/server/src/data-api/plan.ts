import type { AppError } from '../platform/errors';
import { apiErrors } from './api-errors';
import { LIMITS } from './limits';
import type { Condition, Field, FilterNode, JsonStep, OrderTerm, ParsedQuery, SelectItem } from './parse-request';
import type { ForeignKey, Relation, SchemaCache } from './schema-cache';

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

/** How an embedded resource's rows relate to its parent's: column pairs, possibly through a junction table. */
export interface Join {
  /** [parent column, child column] pairs for a direct foreign key. */
  pairs: Array<[string, string]>;
  junction: { table: string; parentPairs: Array<[string, string]>; childPairs: Array<[string, string]> } | null;
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
  alias: string;
  items: Array<PlannedColumn | PlannedEmbed>;
  filters: FilterNode[];
  existence: EmbedExistence[];
  order: PlannedOrder[];
  limit: number | null;
  offset: number | null;
}

interface Relationship {
  target: string;
  toOne: boolean;
  join: Join;
  /** Names a request may use to pick this relationship: its constraint, its columns, the junction table. */
  hints: string[];
  /** Names that identify this relationship in the embedding position besides the target table's name. */
  aliases: string[];
  description: string;
}

function isUniqueOn(relation: Relation, columns: string[]): boolean {
  const keys = [relation.primaryKey, ...relation.uniqueKeys].filter((key) => key.length > 0);
  return keys.some((key) => key.length === columns.length && key.every((column) => columns.includes(column)));
}

function zip(a: string[], b: string[]): Array<[string, string]> {
  return a.map((value, index) => [value, b[index] ?? value]);
}

function isTable(cache: SchemaCache, name: string): boolean {
  return cache.relations.get(name)?.kind === 'table';
}

function relationshipsOf(cache: SchemaCache, parent: string): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of cache.foreignKeys) {
    if (fk.table === parent) {
      const single = fk.columns.length === 1 ? (fk.columns[0] ?? '') : null;
      // A column or constraint named in the embedding position means the table, never a view exposing the same key
      // (PostgREST does the same), so `person_id(name)` stays unambiguous however many views expose people.id.
      const aliases: string[] = [];
      if (isTable(cache, fk.refTable)) {
        aliases.push(fk.name);
        if (single !== null) {
          aliases.push(single);
          if (single.endsWith('_id') && single.length > 3) aliases.push(single.slice(0, -3));
        }
      }
      found.push({
        target: fk.refTable,
        toOne: true,
        join: { pairs: zip(fk.columns, fk.refColumns), junction: null },
        hints: [fk.name, ...fk.columns],
        aliases,
        description: `many-to-one using ${fk.name}(${fk.columns.join(', ')})`,
      });
    }
    if (fk.refTable === parent) {
      const child = cache.relations.get(fk.table);
      found.push({
        target: fk.table,
        toOne: child !== undefined && isUniqueOn(child, fk.columns),
        join: { pairs: zip(fk.refColumns, fk.columns), junction: null },
        hints: [fk.name, ...fk.columns],
        aliases: isTable(cache, fk.table) ? [fk.name] : [],
        description: `one-to-many using ${fk.name}(${fk.columns.join(', ')})`,
      });
    }
  }
  // Many-to-many through a junction whose primary key covers both foreign keys.
  const byTable = new Map<string, ForeignKey[]>();
  for (const fk of cache.foreignKeys) byTable.set(fk.table, [...(byTable.get(fk.table) ?? []), fk]);
  for (const [table, fks] of byTable) {
    const junction = cache.relations.get(table);
    if (junction === undefined || junction.primaryKey.length === 0) continue;
    for (const toParent of fks) {
      if (toParent.refTable !== parent || !toParent.columns.every((c) => junction.primaryKey.includes(c))) continue;
      for (const toChild of fks) {
        if (toChild === toParent || !toChild.columns.every((c) => junction.primaryKey.includes(c))) continue;
        found.push({
          target: toChild.refTable,
          toOne: false,
          join: {
            pairs: [],
            junction: { table, parentPairs: zip(toParent.refColumns, toParent.columns), childPairs: zip(toChild.refColumns, toChild.columns) },
          },
          hints: [table, toChild.name],
          aliases: [],
          description: `many-to-many using ${table} (${toParent.name}, ${toChild.name})`,
        });
      }
    }
  }
  return found;
}

function resolveRelationship(cache: SchemaCache, parent: string, name: string, hint: string | null): Relationship {
  let candidates = relationshipsOf(cache, parent).filter((rel) => rel.target === name || rel.aliases.includes(name));
  if (hint !== null) candidates = candidates.filter((rel) => rel.hints.includes(hint) || rel.target === hint);
  // An exact table name wins over a column-derived alias, and a direct foreign key over a junction.
  if (candidates.length > 1) {
    const direct = candidates.filter((rel) => rel.aliases.includes(name));
    if (direct.length === 1 && direct[0] !== undefined) return direct[0];
  }
  const [only] = candidates;
  if (only === undefined) throw apiErrors.noRelationship(parent, name);
  if (candidates.length > 1) throw apiErrors.ambiguousRelationship(parent, name, candidates.map((rel) => rel.description));
  return only;
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
export function planRead(
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
  const node: ReadNode = { relation, alias: ctx.nextAlias(), items: [], filters: [], existence: [], order: [], limit: null, offset: null };
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

/** Modifiers addressed to an embed that is not in the select are an error, as in PostgREST (PGRST108). */
export function checkModifierPaths(query: ParsedQuery, used: Set<string>): void {
  for (const path of query.modifiers.keys()) {
    if (!used.has(path)) throw apiErrors.filterNotEmbedded(path);
  }
}

/** True when the top level carries at least one filter, which PATCH and DELETE require. */
export function hasRootFilter(node: ReadNode): boolean {
  return node.filters.length > 0 || node.existence.length > 0;
}

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

/** The methods a relation answers, as an Allow header lists them. */
export function allowedMethods(relation: Relation): string[] {
  const { insert, update, delete: remove } = relation.writable;
  return ['GET', 'HEAD', ...(insert ? ['POST'] : []), ...(update ? ['PATCH'] : []), ...(remove ? ['DELETE'] : [])];
}

/**
 * A view that groups, joins or computes its rows cannot take writes; the schema cache knows which from
 * pg_relation_is_updatable, so the request is refused here rather than left for the database to fail. A merging
 * upsert updates as well as inserts. Null when the write may go ahead.
 */
export function writeRefusal(relation: Relation, method: WriteMethod, merge: boolean): AppError | null {
  const { insert, update, delete: remove } = relation.writable;
  const allowed = method === 'POST' ? insert && (!merge || update) : method === 'PATCH' ? update : remove;
  return allowed ? null : apiErrors.notWritable(relation.name, relation.kind, method, allowedMethods(relation));
}
