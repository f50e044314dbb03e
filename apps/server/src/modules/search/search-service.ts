import type pg from 'pg';
import type { Resource } from '@opsdeck/shared';
import { resourceFor } from '../../data-api/resource-map';
import type { SearchItem, SearchKind } from './search-schemas';
import { searchPatterns, type SearchPatterns } from './search-text';

/** How many rows matching inside a name (tiers 2 and 1) are ranked at most, per kind: see docs/search.md. */
export const SEARCH_CANDIDATE_CAP = 1000;

interface KindSource {
  kind: SearchKind;
  /** The table whose data-API resource decides who may see this kind (data-api/resource-map.ts); also the FROM. */
  table: string;
  /** Which rows are live (soft-deleted ones are not); must be the predicate of 0107's partial indexes. */
  live: string;
  /** The names a row is found by, as SQL over the alias `c`: each one's prefix is looked up in its own index. */
  names: readonly string[];
  /** The pieces of all names together, exactly the expression of 0107's GIN index for the table. */
  grams: string;
  title: string;
  subtitle: string;
  /** True for a row that needs attention (unhealthy, open): listed first within a tier. */
  attention: string;
  /** Newest first within a tier. */
  time: string;
  url: (id: string) => string;
}

// Soft-deleted rows (deleted_at set) are left out of every kind that has the column; incidents have none (they are
// resolved or closed, never deleted) and are searched whole. Every string here is SQL written in this file; the
// search text only ever arrives as the bound parameters $1 to $4 (exact, prefix, word prefix, contains; see
// SearchPatterns), with the row limit in $5 and the candidate cap in $6.
const SOURCES: readonly KindSource[] = [
  {
    kind: 'incident',
    table: 'incidents',
    live: 'true',
    names: ['c.title', 'c.incident_id'],
    grams: `search_name_grams(c.title || ' ' || c.incident_id)`,
    title: 'c.title',
    subtitle: `concat_ws(' · ', c.incident_id, c.status, c.severity)`,
    attention: `c.status not in ('resolved', 'closed')`,
    time: 'c.created_at',
    url: (id) => `/incidents/${id}`,
  },
  {
    kind: 'check',
    table: 'checks',
    live: 'c.deleted_at is null',
    names: ['c.name'],
    grams: 'search_name_grams(c.name)',
    title: 'c.name',
    subtitle: `concat_ws(' · ', c.type, c.status, c.namespace)`,
    attention: `c.status = 'unhealthy'`,
    time: 'c.updated_at',
    url: (id) => `/health?checkId=${encodeURIComponent(id)}`,
  },
  {
    kind: 'component',
    table: 'components',
    live: 'c.deleted_at is null',
    names: ['c.name'],
    grams: 'search_name_grams(c.name)',
    title: 'c.name',
    subtitle: `concat_ws(' · ', c.type, c.namespace, c.status)`,
    attention: `c.status = 'unhealthy'`,
    time: 'c.updated_at',
    url: (id) => `/topology/${id}`,
  },
  {
    kind: 'config',
    table: 'config_items',
    live: 'c.deleted_at is null',
    names: ['c.name'],
    grams: 'search_name_grams(c.name)',
    title: 'c.name',
    // Namespace and cluster tell same-named items apart (three `cart` Deployments; #34 item 11).
    subtitle: `concat_ws(' · ', c.type, c.tags ->> 'namespace', c.tags ->> 'cluster', c.health)`,
    attention: `c.health = 'unhealthy'`,
    time: 'c.updated_at',
    url: (id) => `/catalog/${id}`,
  },
  {
    kind: 'playbook',
    table: 'playbooks',
    live: 'c.deleted_at is null',
    names: ['coalesce(c.title, c.name)', 'c.name'],
    grams: `search_name_grams(coalesce(c.title, '') || ' ' || c.name)`,
    title: 'coalesce(c.title, c.name)',
    subtitle: `concat_ws(' · ', c.name, c.category)`,
    attention: 'false',
    time: 'c.updated_at',
    url: (id) => `/playbooks/${id}`,
  },
];

/**
 * One statement per kind. `head`: the exact and prefix tiers, read in the order of each name's "C" btree so that a
 * prefix thousands of names share costs one short index range. `rest`: the word-prefix and anywhere tiers, found
 * through the GIN index of name pieces, at most $6 of them, without the rows head covers, and not looked for at all
 * when head already fills the limit (a one-time filter: `pod` is the prefix of 60,000 names and in no other). Then the best tier per row,
 * ordered: tier, the matched name for the prefix tiers (the exact name sorts first), rows needing attention, newest.
 */
function kindSql(source: KindSource): string {
  const heads = source.names.map(
    (name) => `(select c.id, ${name} as matched, case when lower(${name}) = $1 then 4 else 3 end as tier
                 from ${source.table} c
                where ${source.live} and lower(${name}) collate "C" like $2
                order by lower(${name}) collate "C", c.id
                limit $5)`,
  );
  const any = (test: (name: string) => string): string => source.names.map(test).join(' or ');
  return `with head as (${heads.join(' union all ')}),
    rest as (
      select c.id, null::text as matched, case when ${any((name) => `lower(${name}) ~ $3`)} then 2 else 1 end as tier
        from ${source.table} c
       where (select count(*) from head) < $5
         and ${source.live} and ${source.grams} @> search_query_grams($1)
         and (${any((name) => `lower(${name}) like $4`)})
         and not (${any((name) => `coalesce(lower(${name}) collate "C" like $2, false)`)})
       limit $6),
    best as (
      select distinct on (m.id) m.id, m.matched, m.tier from (select * from head union all select * from rest) m order by m.id, m.tier desc)
    select c.id::text as id, ${source.title} as title, ${source.subtitle} as subtitle, b.tier,
           row_number() over (order by b.tier desc, lower(b.matched) collate "C" nulls last,
                                       coalesce(${source.attention}, false) desc, ${source.time} desc, c.id) as ord
      from best b join ${source.table} c on c.id = b.id
     order by ord
     limit $5`;
}

// Built once per set of kinds a caller may read (at most 32): the statements depend on nothing but this file.
const STATEMENTS = new Map<string, string>();

/**
 * One statement for all the kinds a caller may read, so a search is one round trip (PGlite serves one query at a
 * time). The kind names are literals of this file.
 */
function statementFor(sources: readonly KindSource[]): string {
  const key = sources.map((source) => source.kind).join(',');
  let sql = STATEMENTS.get(key);
  if (sql === undefined) {
    sql = sources.map((source) => `select '${source.kind}' as kind, k.* from (${kindSql(source)}) k`).join('\nunion all\n');
    STATEMENTS.set(key, sql);
  }
  return sql;
}

/** The resource guarding each kind: the data API's own for the table, so the search never shows what /api/db hides. */
export function searchKindResource(kind: SearchKind): Resource | null {
  const source = SOURCES.find((candidate) => candidate.kind === kind);
  return source === undefined ? null : resourceFor(source.table);
}

export interface SearchRequest {
  /** Normalized text (normalizeSearchText), not empty. */
  text: string;
  limit: number;
  /** Whether the caller may read a resource: `can(principal.roles, resource, 'read')` in the route. */
  canRead: (resource: Resource) => boolean;
}

interface Row {
  kind: SearchKind;
  id: string;
  title: string;
  subtitle: string | null;
  tier: number;
  /** The row's place within its kind, from 1. */
  ord: string | number;
}

function params(patterns: SearchPatterns, limit: number): unknown[] {
  return [patterns.exact, patterns.prefix, patterns.wordPrefix, patterns.contains, limit, SEARCH_CANDIDATE_CAP];
}

/**
 * Searches every kind the caller may read and merges the answers: best tier first across kinds, each kind's own order
 * kept within a tier, kinds in the order of SOURCES when tiers tie. A kind the caller may not read is never queried.
 */
export async function search(pool: pg.Pool, request: SearchRequest): Promise<SearchItem[]> {
  const patterns = searchPatterns(request.text);
  const readable = SOURCES.filter((source) => {
    const resource = resourceFor(source.table);
    return resource !== null && request.canRead(resource);
  });
  if (readable.length === 0) return [];
  const { rows } = await pool.query<Row>(statementFor(readable), params(patterns, request.limit));
  const kindIndex = new Map(readable.map((source, index) => [source.kind, index]));
  const ranked = rows.flatMap((row) => {
    const index = kindIndex.get(row.kind);
    const source = readable[index ?? -1];
    return source === undefined ? [] : [{ source, row, kindIndex: index ?? 0, rowIndex: Number(row.ord) }];
  });
  ranked.sort((a, b) => b.row.tier - a.row.tier || a.rowIndex - b.rowIndex || a.kindIndex - b.kindIndex);
  return ranked.slice(0, request.limit).map(({ source, row }) => ({
    kind: source.kind,
    id: row.id,
    title: row.title,
    ...(row.subtitle === null || row.subtitle === '' ? {} : { subtitle: row.subtitle }),
    url: source.url(row.id),
  }));
}
