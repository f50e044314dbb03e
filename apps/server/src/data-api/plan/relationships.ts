import { apiErrors } from '../api-errors';
import type { ForeignKey, Relation, SchemaCache } from '../schema-cache';

/** How an embedded resource's rows relate to its parent's: column pairs, possibly through a junction table. */
export interface Join {
  /** [parent column, child column] pairs for a direct foreign key. */
  pairs: Array<[string, string]>;
  junction: { table: string; parentPairs: Array<[string, string]>; childPairs: Array<[string, string]> } | null;
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

export function resolveRelationship(cache: SchemaCache, parent: string, name: string, hint: string | null): Relationship {
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
