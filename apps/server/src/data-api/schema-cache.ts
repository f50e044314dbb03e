import type pg from 'pg';
import type { UniqueKey } from '../platform/errors';
import { isSecretColumn } from './resource-map';
import { textLimitOf } from './text-limits';
import { viewOutputColumns, type OutputColumn } from './view-origins';

export interface Column {
  name: string;
  /** format_type() of the column, e.g. `uuid`, `text[]`, `timestamp with time zone`. */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
  /** The longest text a write may put here, in characters (text-limits.ts); null for a column that holds no text. */
  maxLength: number | null;
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  /** Secret columns are left out here, so that every later stage treats them as non-existent. */
  columns: Map<string, Column>;
  primaryKey: string[];
  uniqueKeys: string[][];
  /** What PostgreSQL lets a statement do to it (pg_relation_is_updatable, INSTEAD OF triggers included). */
  writable: Writability;
  /** For a view, every table it reads, through other views too; empty for a table. */
  reads: string[];
}

export interface Writability {
  insert: boolean;
  update: boolean;
  delete: boolean;
}

const READ_ONLY: Writability = { insert: false, update: false, delete: false };

export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface FunctionArg {
  name: string;
  type: string;
  optional: boolean;
}

export interface DbFunction {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** The rows the function returns, when they have columns (a table type or RETURNS TABLE); null for scalars. */
  rowRelation: Relation | null;
  returnsVoid: boolean;
  volatile: boolean;
}

interface RelationRow {
  oid: string;
  name: string;
  kind: string;
  /** pg_relation_is_updatable's bit mask: 1 << CMD_UPDATE (4), 1 << CMD_INSERT (8), 1 << CMD_DELETE (16). */
  updatable: number;
}
interface DependencyRow {
  view: string;
  relation: string;
}
interface ColumnRow {
  relation: string;
  relation_oid: string;
  position: number;
  name: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
  /** In a btree index, as a key column or through an index expression. */
  indexed: boolean;
}
interface ViewDefinitionRow {
  view: string;
  action: string;
}
interface UniqueIndexRow {
  name: string;
  relation: string;
  columns: string[];
}
interface ConstraintRow {
  name: string;
  type: string;
  relation: string;
  ref_relation: string | null;
  columns: string[];
  ref_columns: string[];
}
interface FunctionRow {
  name: string;
  volatility: string;
  returns_set: boolean;
  return_type: string;
  return_relation: string | null;
  arg_names: string[] | null;
  arg_modes: string[] | null;
  all_arg_types: string[] | null;
  in_arg_types: string[];
  n_defaults: number;
}

const RELATIONS_SQL = `
  select c.oid::text as oid, c.relname as name, c.relkind::text as kind, pg_relation_is_updatable(c.oid, true) as updatable
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')`;

/** The relations each view's rewrite rule refers to, which is everything its query reads. */
const VIEW_DEPENDENCIES_SQL = `
  select distinct v.relname as view, t.relname as relation
    from pg_rewrite r
    join pg_class v on v.oid = r.ev_class
    join pg_namespace n on n.oid = v.relnamespace
    join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid and d.refclassid = 'pg_class'::regclass
    join pg_class t on t.oid = d.refobjid and t.oid <> v.oid
   where n.nspname = 'public' and v.relkind in ('v', 'm')
   order by 1, 2`;

const COLUMNS_SQL = `
  select c.relname as relation, c.oid::text as relation_oid, a.attnum::int as position, a.attname as name,
         format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null, a.atthasdef as has_default,
         exists (select 1 from pg_index x
                   join pg_class i on i.oid = x.indexrelid
                   join pg_am am on am.oid = i.relam
                  where x.indrelid = c.oid and am.amname = 'btree'
                    and (a.attnum = any (x.indkey::int2[])
                         or exists (select 1 from pg_depend d
                                     where d.classid = 'pg_class'::regclass and d.objid = x.indexrelid
                                       and d.refclassid = 'pg_class'::regclass and d.refobjid = c.oid
                                       and d.refobjsubid = a.attnum))) as indexed
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
   order by c.relname, a.attnum`;

/** The query tree of every view, which says what each of its columns reads (view-origins.ts). */
const VIEW_DEFINITIONS_SQL = `
  select v.relname as view, r.ev_action::text as action
    from pg_rewrite r
    join pg_class v on v.oid = r.ev_class
    join pg_namespace n on n.oid = v.relnamespace
   where n.nspname = 'public' and v.relkind in ('v', 'm') and r.rulename = '_RETURN'`;

/** Unique indexes rather than constraints: a unique violation names the index, and some are indexes only (partial). */
const UNIQUE_INDEXES_SQL = `
  select i.relname as name, c.relname as relation,
         array(select pg_get_indexdef(x.indexrelid, k, true) from generate_series(1, x.indnkeyatts::int) k order by k) as columns
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class c on c.oid = x.indrelid
    join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and x.indisunique`;

const CONSTRAINTS_SQL = `
  select con.conname as name, con.contype::text as type, c.relname as relation, fc.relname as ref_relation,
         array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
                 join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i) as columns,
         coalesce(array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
                 join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i), '{}') as ref_columns
    from pg_constraint con
    join pg_class c on c.oid = con.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_class fc on fc.oid = con.confrelid
    left join pg_namespace fn on fn.oid = fc.relnamespace
   where n.nspname = 'public' and con.contype in ('p', 'u', 'f') and (con.contype <> 'f' or fn.nspname = 'public')
   order by con.conname`;

const FUNCTIONS_SQL = `
  select p.proname as name, p.provolatile::text as volatility, p.proretset as returns_set,
         format_type(p.prorettype, null) as return_type,
         case when rt.typtype = 'c' and rn.nspname = 'public' then rc.relname end as return_relation,
         p.proargnames::text[] as arg_names, p.proargmodes::text[] as arg_modes,
         case when p.proallargtypes is not null
              then array(select format_type(t, null) from unnest(p.proallargtypes) t) end as all_arg_types,
         array(select format_type(t, null) from unnest(p.proargtypes::oid[]) t) as in_arg_types,
         p.pronargdefaults::int as n_defaults
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    join pg_type rt on rt.oid = p.prorettype
    left join pg_class rc on rc.oid = rt.typrelid
    left join pg_namespace rn on rn.oid = rc.relnamespace
   where n.nspname = 'public' and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')
   order by p.proname, p.oid`;

function buildFunction(row: FunctionRow, relations: Map<string, Relation>): DbFunction | null {
  const inTypes = row.in_arg_types;
  const modes = row.arg_modes ?? inTypes.map(() => 'i');
  const names = row.arg_names ?? [];
  const allTypes = row.all_arg_types ?? inTypes;
  const args: FunctionArg[] = [];
  const outColumns = new Map<string, Column>();
  modes.forEach((mode, index) => {
    const name = names[index] ?? '';
    const type = allTypes[index] ?? 'unknown';
    if (mode === 'i' || mode === 'b' || mode === 'v') args.push({ name, type, optional: false });
    if (mode === 'o' || mode === 'b' || mode === 't') outColumns.set(name, { name, type, notNull: false, hasDefault: false, maxLength: null });
  });
  // Arguments are passed by name, so an unnamed one cannot be addressed from a query string or a JSON object.
  if (args.some((arg) => arg.name === '')) return null;
  for (let i = args.length - row.n_defaults; i < args.length; i += 1) {
    const arg = args[i];
    if (arg !== undefined) arg.optional = true;
  }
  let rowRelation: Relation | null = null;
  if (row.return_relation !== null) rowRelation = relations.get(row.return_relation) ?? null;
  else if (row.return_type === 'record' && outColumns.size > 0) {
    rowRelation = { name: row.name, kind: 'view', columns: outColumns, primaryKey: [], uniqueKeys: [], writable: READ_ONLY, reads: [] };
  }
  return {
    name: row.name,
    args,
    returnsSet: row.returns_set,
    rowRelation,
    returnsVoid: row.return_type === 'void',
    volatile: row.volatility === 'v',
  };
}

/** Follows views through views, so a view's `reads` names the tables underneath, whatever depth they sit at. */
function resolveViewReads(relations: Map<string, Relation>, rows: DependencyRow[]): void {
  const direct = new Map<string, string[]>();
  for (const row of rows) direct.set(row.view, [...(direct.get(row.view) ?? []), row.relation]);
  for (const [view, relation] of relations) {
    if (relation.kind !== 'view') continue;
    const seen = new Set<string>();
    const pending = [...(direct.get(view) ?? [])];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      pending.push(...(direct.get(next) ?? []));
    }
    relation.reads = [...seen].filter((name) => !direct.has(name)).sort();
  }
}

/** A table column that a view column passes through unchanged. */
interface BaseColumn {
  table: string;
  column: string;
}

/** One end of a relationship: the relation and its key columns, in the foreign key's order. */
interface KeyEnd {
  relation: string;
  columns: string[];
}

/** Views nest, so a view column reached through another view is followed down to the table beneath. */
const MAX_VIEW_NESTING = 32;

/**
 * For every view column that passes table columns through unchanged, those columns (one per branch of a UNION);
 * computed columns, and columns the data API hides, are left out.
 */
function passThroughColumns(
  relations: Map<string, Relation>,
  relationRows: RelationRow[],
  columnRows: ColumnRow[],
  viewRows: ViewDefinitionRow[],
): Map<string, Map<string, BaseColumn[]>> {
  const nameByOid = new Map(relationRows.map((row) => [row.oid, row.name]));
  const attributeName = new Map(columnRows.map((row) => [`${row.relation_oid}:${row.position}`, row.name]));
  const outputs = new Map<string, OutputColumn[]>(viewRows.map((row) => [row.view, viewOutputColumns(row.action)]));
  const resolve = (view: string, column: string, depth: number): BaseColumn[] | null => {
    const output = outputs.get(view)?.find((candidate) => candidate.name === column);
    if (output === undefined || output.origins === null || depth > MAX_VIEW_NESTING) return null;
    const found: BaseColumn[] = [];
    for (const origin of output.origins) {
      const table = nameByOid.get(String(origin.relid));
      const name = attributeName.get(`${origin.relid}:${origin.attnum}`);
      const relation = table === undefined ? undefined : relations.get(table);
      if (table === undefined || name === undefined || relation === undefined) return null;
      if (relation.kind === 'table') found.push({ table, column: name });
      else {
        const beneath = resolve(table, name, depth + 1);
        if (beneath === null) return null;
        found.push(...beneath);
      }
    }
    return found;
  };
  const result = new Map<string, Map<string, BaseColumn[]>>();
  for (const [view, columns] of outputs) {
    const relation = relations.get(view);
    if (relation === undefined) continue;
    const resolved = new Map<string, BaseColumn[]>();
    for (const { name } of columns) {
      const base = relation.columns.has(name) ? resolve(view, name, 0) : null;
      if (base !== null) resolved.set(name, base);
    }
    result.set(view, resolved);
  }
  return result;
}

function cartesian(lists: string[][]): string[][] {
  return lists.reduce<string[][]>((combos, options) => combos.flatMap((combo) => options.map((option) => [...combo, option])), [[]]);
}

/**
 * A view inherits the foreign keys of the table columns it exposes, in both directions, as PostgREST does: a view
 * exposing `notifications.person_id` references `people`, and `people` (or a view exposing `people.id`) is referenced
 * by it. A UNION column inherits a single-column key when every branch's column references the same target; the
 * relationship keeps the leftmost branch's constraint name, as the view keeps the leftmost branch's column names.
 */
function viewForeignKeys(base: ForeignKey[], passThrough: Map<string, Map<string, BaseColumn[]>>): ForeignKey[] {
  const key = (table: string, column: string): string => `${table}\u0000${column}`;
  const exposures = new Map<string, Array<{ view: string; column: string }>>();
  const unions: Array<{ view: string; column: string; origins: BaseColumn[] }> = [];
  for (const [view, columns] of passThrough) {
    for (const [column, origins] of columns) {
      const [only] = origins;
      if (origins.length > 1) unions.push({ view, column, origins });
      else if (only !== undefined) exposures.set(key(only.table, only.column), [...(exposures.get(key(only.table, only.column)) ?? []), { view, column }]);
    }
  }
  const endsThrough = (table: string, columns: string[]): KeyEnd[] => {
    const perView = new Map<string, string[][]>();
    columns.forEach((column, index) => {
      for (const exposure of exposures.get(key(table, column)) ?? []) {
        const lists = perView.get(exposure.view) ?? columns.map(() => []);
        lists[index]?.push(exposure.column);
        perView.set(exposure.view, lists);
      }
    });
    const ends: KeyEnd[] = [];
    for (const [view, lists] of perView) {
      if (lists.every((list) => list.length > 0)) ends.push(...cartesian(lists).map((combo) => ({ relation: view, columns: combo })));
    }
    return ends;
  };
  const sameTarget = (fk: ForeignKey, origin: BaseColumn): boolean =>
    base.some(
      (other) =>
        other.table === origin.table &&
        other.columns.length === 1 &&
        other.columns[0] === origin.column &&
        other.refTable === fk.refTable &&
        other.refColumns.join('\u0000') === fk.refColumns.join('\u0000'),
    );
  const derived: ForeignKey[] = [];
  for (const fk of base) {
    const sources: KeyEnd[] = [{ relation: fk.table, columns: fk.columns }, ...endsThrough(fk.table, fk.columns)];
    if (fk.columns.length === 1) {
      for (const union of unions) {
        const [first, ...rest] = union.origins;
        if (first?.table === fk.table && first.column === fk.columns[0] && rest.every((origin) => sameTarget(fk, origin))) {
          sources.push({ relation: union.view, columns: [union.column] });
        }
      }
    }
    const targets: KeyEnd[] = [{ relation: fk.refTable, columns: fk.refColumns }, ...endsThrough(fk.refTable, fk.refColumns)];
    for (const [s, source] of sources.entries()) {
      for (const [t, target] of targets.entries()) {
        if (s === 0 && t === 0) continue;
        derived.push({ name: fk.name, table: source.relation, columns: source.columns, refTable: target.relation, refColumns: target.columns });
      }
    }
  }
  return derived;
}

/** A view column that passes table columns through takes the tightest of their limits, which their indexes set. */
function inheritTextLimits(relations: Map<string, Relation>, passThrough: Map<string, Map<string, BaseColumn[]>>): void {
  for (const [view, columns] of passThrough) {
    for (const [name, origins] of columns) {
      const column = relations.get(view)?.columns.get(name);
      if (column === undefined || column.maxLength === null) continue;
      for (const origin of origins) {
        const limit = relations.get(origin.table)?.columns.get(origin.column)?.maxLength ?? null;
        if (limit !== null) column.maxLength = Math.min(column.maxLength, limit);
      }
    }
  }
}

/**
 * Everything the data API knows about the `public` schema. Identifiers that reach SQL are only ever taken from here,
 * so a request can name nothing the database did not declare.
 */
export class SchemaCache {
  relations = new Map<string, Relation>();
  /** Foreign keys between tables, and those views inherit from the table columns they expose (viewForeignKeys). */
  foreignKeys: ForeignKey[] = [];
  /** Unique indexes by name (a primary key or unique constraint has one of the same name), for unique violations. */
  uniqueIndexes = new Map<string, UniqueKey>();
  functions = new Map<string, DbFunction[]>();

  constructor(private readonly pool: pg.Pool) {}

  /** Re-reads the catalog; call after DDL (tests that create tables, or a schema change at runtime). */
  async reload(): Promise<void> {
    const [relationRows, columnRows, constraintRows, functionRows, dependencyRows, viewRows, uniqueRows] = await Promise.all([
      this.pool.query<RelationRow>(RELATIONS_SQL),
      this.pool.query<ColumnRow>(COLUMNS_SQL),
      this.pool.query<ConstraintRow>(CONSTRAINTS_SQL),
      this.pool.query<FunctionRow>(FUNCTIONS_SQL),
      this.pool.query<DependencyRow>(VIEW_DEPENDENCIES_SQL),
      this.pool.query<ViewDefinitionRow>(VIEW_DEFINITIONS_SQL),
      this.pool.query<UniqueIndexRow>(UNIQUE_INDEXES_SQL),
    ]);
    const relations = new Map<string, Relation>();
    for (const row of relationRows.rows) {
      if (row.name === 'schema_migrations') continue;
      relations.set(row.name, {
        name: row.name,
        kind: row.kind === 'r' || row.kind === 'p' ? 'table' : 'view',
        columns: new Map(),
        primaryKey: [],
        uniqueKeys: [],
        writable: { insert: (row.updatable & 8) !== 0, update: (row.updatable & 4) !== 0, delete: (row.updatable & 16) !== 0 },
        reads: [],
      });
    }
    resolveViewReads(relations, dependencyRows.rows);
    for (const row of columnRows.rows) {
      const relation = relations.get(row.relation);
      if (relation === undefined || isSecretColumn(row.name)) continue;
      relation.columns.set(row.name, {
        name: row.name,
        type: row.type,
        notNull: row.not_null,
        hasDefault: row.has_default,
        maxLength: textLimitOf(row.name, row.type, row.indexed),
      });
    }
    const foreignKeys: ForeignKey[] = [];
    for (const row of constraintRows.rows) {
      const relation = relations.get(row.relation);
      if (relation === undefined) continue;
      if (row.type === 'p') relation.primaryKey = row.columns;
      else if (row.type === 'u') relation.uniqueKeys.push(row.columns);
      else if (row.ref_relation !== null && relations.has(row.ref_relation)) {
        if (!row.columns.every((column) => relation.columns.has(column))) continue;
        foreignKeys.push({ name: row.name, table: row.relation, columns: row.columns, refTable: row.ref_relation, refColumns: row.ref_columns });
      }
    }
    const passThrough = passThroughColumns(relations, relationRows.rows, columnRows.rows, viewRows.rows);
    inheritTextLimits(relations, passThrough);
    foreignKeys.push(...viewForeignKeys(foreignKeys, passThrough));
    const uniqueIndexes = new Map<string, UniqueKey>();
    for (const row of uniqueRows.rows) uniqueIndexes.set(row.name, { table: row.relation, columns: row.columns });
    const functions = new Map<string, DbFunction[]>();
    for (const row of functionRows.rows) {
      const fn = buildFunction(row, relations);
      if (fn === null) continue;
      functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
    }
    this.relations = relations;
    this.foreignKeys = foreignKeys;
    this.uniqueIndexes = uniqueIndexes;
    this.functions = functions;
  }
}
