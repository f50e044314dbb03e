import type pg from 'pg';
import { isSecretColumn } from './resource-map';

export interface Column {
  name: string;
  /** format_type() of the column, e.g. `uuid`, `text[]`, `timestamp with time zone`. */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
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
  name: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
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
  select c.relname as name, c.relkind::text as kind, pg_relation_is_updatable(c.oid, true) as updatable
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
  select c.relname as relation, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
         a.attnotnull as not_null, a.atthasdef as has_default
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
   order by c.relname, a.attnum`;

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
         array(select format_type(t, null) from unnest(p.proallargtypes) t) as all_arg_types,
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
    if (mode === 'o' || mode === 'b' || mode === 't') outColumns.set(name, { name, type, notNull: false, hasDefault: false });
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

/**
 * Everything the data API knows about the `public` schema. Identifiers that reach SQL are only ever taken from here,
 * so a request can name nothing the database did not declare.
 */
export class SchemaCache {
  relations = new Map<string, Relation>();
  foreignKeys: ForeignKey[] = [];
  functions = new Map<string, DbFunction[]>();

  constructor(private readonly pool: pg.Pool) {}

  /** Re-reads the catalog; call after DDL (tests that create tables, or a schema change at runtime). */
  async reload(): Promise<void> {
    const [relationRows, columnRows, constraintRows, functionRows, dependencyRows] = await Promise.all([
      this.pool.query<RelationRow>(RELATIONS_SQL),
      this.pool.query<ColumnRow>(COLUMNS_SQL),
      this.pool.query<ConstraintRow>(CONSTRAINTS_SQL),
      this.pool.query<FunctionRow>(FUNCTIONS_SQL),
      this.pool.query<DependencyRow>(VIEW_DEPENDENCIES_SQL),
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
      relation.columns.set(row.name, { name: row.name, type: row.type, notNull: row.not_null, hasDefault: row.has_default });
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
    const functions = new Map<string, DbFunction[]>();
    for (const row of functionRows.rows) {
      const fn = buildFunction(row, relations);
      if (fn === null) continue;
      functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
    }
    this.relations = relations;
    this.foreignKeys = foreignKeys;
    this.functions = functions;
  }
}
