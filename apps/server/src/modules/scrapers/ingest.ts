import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ANALYZERS, analyzeItem, type Finding } from './analyzers';
import { ignoresChangeType } from './change-annotations';
import { canonicalJson, diffContent, type ContentDiff } from './ingest-diff';
import type { CatalogLookup, ItemHealth, ItemKey, ScrapedChange, ScrapedItem, ScrapedRelationship, ScrapeError, ScrapeResult, ScrapeSummary, TypeSummary } from './types';

/**
 * Stores what one scraper run found (issue #12 items 3 and 4) in one transaction. Each item carries a hash of what it
 * was scraped as (config_hash, 0086); unchanged items are never written, so a rescrape that finds nothing new costs one
 * read of the scraper's ids and hashes. New and changed items are written a few thousand rows per statement.
 */

export interface IngestInput {
  scraperId: string;
  agentId: string | null;
  result: ScrapeResult;
  startedAt: Date;
}

const CHUNK = 5000;
const HEALTH: ReadonlySet<string> = new Set<ItemHealth>(['healthy', 'unhealthy', 'warning', 'unknown']);
// Generous, since a first scrape of a large estate inserts everything at once; the scheduler's run timeout still
// bounds the run as a whole.
const STATEMENT_TIMEOUT = '10min';

interface Prepared {
  item: ScrapedItem;
  key: string;
  ids: string;
  configJson: string;
  tags: string;
  labels: string;
  properties: string;
  health: string | null;
  createdAt: string | null;
  hash: string;
}

function keyOf(key: ItemKey): string {
  return `${key.type}\u0000${key.externalId}`;
}

function validInstant(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The last sighting of a key wins: a source listing an item twice describes it twice, the later one being newer. */
function prepare(items: ScrapedItem[]): Prepared[] {
  const byKey = new Map<string, Prepared>();
  for (const item of items) {
    const configJson = canonicalJson(item.config);
    const tags = canonicalJson(item.tags);
    const labels = canonicalJson(item.labels);
    const properties = canonicalJson(item.properties ?? []);
    const ids = JSON.stringify([...new Set([item.externalId, ...(item.aliases ?? [])])]);
    const health = item.health !== null && item.health !== undefined && HEALTH.has(item.health) ? item.health : null;
    const parent = item.parent === null || item.parent === undefined ? null : [item.parent.type, item.parent.externalId];
    // Everything the ingest writes from the item, so a change of any of it is stored and nothing else is compared.
    const described = canonicalJson({
      name: item.name,
      description: item.description ?? null,
      status: item.status ?? null,
      health,
      ready: item.ready ?? null,
      tags: item.tags,
      labels: item.labels,
      // Only when set, so the hashes of items stored before properties existed stay as they were.
      ...(item.properties === undefined || item.properties.length === 0 ? {} : { properties: item.properties }),
      parent,
      ids,
      format: item.format,
      source: item.source ?? null,
    });
    const hash = createHash('sha256').update(described).update('\u0000').update(configJson).digest('hex');
    const key = keyOf(item);
    byKey.delete(key);
    byKey.set(key, { item, key, ids, configJson, tags, labels, properties, health, createdAt: validInstant(item.createdAt), hash });
  }
  return [...byKey.values()];
}


/** The scraper's stored items, live ones first, so the first row per key is the one a run's item matches. */
const STORED = `
select id, type, external_id[1] as ext, config_hash as hash, deleted_at is not null as deleted,
       delete_reason is not distinct from 'Retention' as retired, parent_id
  from config_items
 where scraper_id = $1
 order by deleted_at is not null, updated_at desc`;

/** New items, each with a CREATE change. */
const INSERT_NEW = `
with inserted as (
  insert into config_items (id, scraper_id, agent_id, external_id, type, config_class, name, description, status, health,
                            ready, parent_id, tags, labels, config, format, source, config_hash, last_scraped_time,
                            created_at, properties)
  select u.id, $1, $2, array(select jsonb_array_elements_text(u.ids::jsonb)), u.type, split_part(u.type, '::', 1),
         u.name, u.description, u.status, u.health, u.ready, u.parent_id, u.tags::jsonb, u.labels::jsonb,
         u.config::jsonb, u.format, u.source, u.hash, now(), coalesce(u.created_at::timestamptz, now()), u.properties::jsonb
    from unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[],
                $11::uuid[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[],
                $19::text[])
         as u(id, ids, type, name, description, status, health, ready, parent_id, tags, labels, config, format, source,
              hash, created_at, properties)
  returning id, source)
insert into config_changes (config_id, change_type, severity, source, summary)
select id, 'CREATE', 'info', source, 'Created' from inserted`;

/** Changed items and items that came back, which are undeleted. */
const UPDATE_CHANGED = `
update config_items c
   set agent_id = $2, external_id = array(select jsonb_array_elements_text(u.ids::jsonb)), name = u.name,
       description = u.description, status = u.status, health = u.health, ready = u.ready, parent_id = u.parent_id,
       tags = u.tags::jsonb, labels = u.labels::jsonb, config = u.config::jsonb, format = u.format, source = u.source,
       config_hash = u.hash, last_scraped_time = now(), deleted_at = null, delete_reason = null,
       properties = u.properties::jsonb
  from unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[],
              $11::uuid[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[],
              $19::text[])
       as u(id, ids, type, name, description, status, health, ready, parent_id, tags, labels, config, format, source,
            hash, created_at, properties)
 where c.id = u.id and c.scraper_id = $1`;

const OLD_CONTENT = `select id, config from config_items where id = any($1::uuid[])`;

const LINK_PARENTS = `
update config_items c
   set parent_id = u.parent_id
  from unnest($1::uuid[], $2::uuid[]) as u(id, parent_id)
 where c.id = u.id`;

const INSERT_CHANGES = `
insert into config_changes (config_id, change_type, severity, source, summary, diff, patches, fingerprint)
select u.config_id, u.change_type, u.severity, u.source, u.summary, u.diff, u.patches, u.fingerprint
  from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       as u(config_id, change_type, severity, source, summary, diff, patches, fingerprint)`;

/** Items a complete run did not see: soft-deleted with a DELETE change, their open findings resolved. */
const DELETE_MISSING = `
with gone as (
  update config_items c
     set deleted_at = now(), delete_reason = 'NotFound'
   where c.id = any($1::uuid[]) and c.deleted_at is null
  returning c.id, c.source),
changes as (
  insert into config_changes (config_id, change_type, severity, source, summary)
  select id, 'DELETE', 'info', source, 'Deleted: no longer found by its scraper' from gone),
resolved as (
  update config_analysis a set status = 'resolved'
    from gone
   where a.config_id = gone.id and a.status = 'open' and a.analyzer = any($2::text[])
  returning 1)
select (select count(*)::integer from gone) as deleted, (select count(*)::integer from resolved) as resolved`;

/**
 * The run's soft links, written only where new or changed; a complete run also soft-deletes the scraper's links it
 * did not report. Manual links have another selector and are never touched.
 */
const WRITE_LINKS = `
with links as (
  select * from unnest($2::uuid[], $3::uuid[], $4::text[]) as u(from_id, to_id, relation)),
written as (
  insert into config_relationships (config_id, related_id, relation, selector_id)
  select from_id, to_id, relation, $1 from links
  on conflict (config_id, related_id, selector_id) do update
     set relation = excluded.relation, deleted_at = null
   where config_relationships.relation is distinct from excluded.relation or config_relationships.deleted_at is not null
  returning 1),
removed as (
  update config_relationships r
     set deleted_at = now()
   where $5::boolean and r.selector_id = $1 and r.deleted_at is null
     and not exists (select 1 from links l where l.from_id = r.config_id and l.to_id = r.related_id)
  returning 1)
select (select count(*)::integer from written) as written, (select count(*)::integer from removed) as removed`;

/**
 * The configs each catalog lookup finds (`i` is its 1-based place in the arrays). A lookup with a name goes through
 * the name index; one without a name through the tags index, by its cluster.
 */
const FIND_LOOKUPS = `
with wanted as (
  select u.i::integer as i, u.cluster, u.type, u.name, u.namespace
    from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality as u(cluster, type, name, namespace, i))
select w.i, c.id
  from wanted w
  join config_items c on c.name = w.name
 where w.name is not null and c.deleted_at is null and c.tags @> jsonb_build_object('cluster', w.cluster)
   and (w.type is null or c.type = w.type) and (w.namespace is null or c.tags @> jsonb_build_object('namespace', w.namespace))
union all
select w.i, c.id
  from wanted w
  join config_items c on c.tags @> jsonb_build_object('cluster', w.cluster)
 where w.name is null and c.deleted_at is null
   and (w.type is null or c.type = w.type) and (w.namespace is null or c.tags @> jsonb_build_object('namespace', w.namespace))`;

const INSERT_EVENTS = `
insert into config_changes (config_id, external_change_id, change_type, severity, summary, details, source, created_at,
                            first_observed)
select u.config_id, u.external_change_id, u.change_type, u.severity, u.summary, u.details::jsonb, u.source,
       u.created_at::timestamptz, u.created_at::timestamptz
  from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       as u(config_id, external_change_id, change_type, severity, summary, details, source, created_at)
on conflict (config_id, external_change_id) where external_change_id is not null do nothing
returning 1`;

/**
 * Findings upserted on (config_id, analyzer): first_observed stays, last_observed moves, a silenced one stays silenced.
 * Opened counts the findings that were not open before this statement (every part of it sees the same snapshot).
 */
const UPSERT_FINDINGS = `
with written as (
  insert into config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, summary, message,
                               analysis, source)
  select u.config_id, $1, u.analyzer, u.analysis_type, u.severity, 'open', u.summary, u.message, u.analysis::jsonb,
         'scraper'
    from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         as u(config_id, analyzer, analysis_type, severity, summary, message, analysis)
  on conflict (config_id, analyzer) do update
     set scraper_id = excluded.scraper_id, analysis_type = excluded.analysis_type, severity = excluded.severity,
         summary = excluded.summary, message = excluded.message, analysis = excluded.analysis, last_observed = now(),
         status = case when config_analysis.status = 'silenced' then 'silenced' else 'open' end
  returning config_id, analyzer)
select count(*)::integer as opened
  from written w
 where not exists (select 1 from config_analysis a
                    where a.config_id = w.config_id and a.analyzer = w.analyzer and a.status <> 'resolved')`;

/** Open findings of the re-analyzed items that no analyzer reported this time. */
const RESOLVE_CLEARED = `
update config_analysis a
   set status = 'resolved'
 where a.config_id = any($1::uuid[]) and a.status = 'open' and a.analyzer = any($2::text[])
   and not exists (select 1 from unnest($3::uuid[], $4::text[]) as f(config_id, analyzer)
                    where f.config_id = a.config_id and f.analyzer = a.analyzer)`;

const WRITE_STATE = `
insert into config_scraper_state (scraper_id, last_scraped_time, last_complete_scrape)
values ($1, $2, case when $3::boolean then $2::timestamptz end)
on conflict (scraper_id) do update
   set last_scraped_time = excluded.last_scraped_time,
       last_complete_scrape = coalesce(excluded.last_complete_scrape, config_scraper_state.last_complete_scrape)`;

interface StoredRow {
  id: string;
  type: string;
  ext: string | null;
  hash: string | null;
  deleted: boolean;
  /** Deleted by a retention age rule: it stays deleted until its content changes, or each run would restore it. */
  retired: boolean;
  parent_id: string | null;
}

interface Write {
  entry: Prepared;
  id: string;
  parentId: string | null;
  wasDeleted: boolean;
}

interface ChangeRow {
  configId: string;
  changeType: string;
  severity: string;
  source: string | null;
  summary: string;
  diff: string | null;
  patches: string | null;
  fingerprint: string | null;
}

function lookupKey(lookup: CatalogLookup): string {
  return [lookup.cluster, lookup.type ?? '', lookup.name ?? '', lookup.namespace ?? ''].join('\u0000');
}

/** The ids each distinct catalog lookup of the run finds, read in the ingest's transaction so this run's items count. */
async function findLookups(client: pg.PoolClient, links: readonly ScrapedRelationship[]): Promise<Map<string, string[]>> {
  const wanted = new Map<string, CatalogLookup>();
  for (const link of links) if ('lookup' in link.from) wanted.set(lookupKey(link.from.lookup), link.from.lookup);
  const found = new Map<string, string[]>();
  for (const rows of chunks([...wanted.values()])) {
    const answer = await client.query<{ i: number; id: string }>(FIND_LOOKUPS, [
      rows.map((r) => r.cluster),
      rows.map((r) => r.type ?? null),
      rows.map((r) => r.name ?? null),
      rows.map((r) => r.namespace ?? null),
    ]);
    for (const { i, id } of answer.rows) {
      const lookup = rows[i - 1];
      if (lookup === undefined) continue;
      const key = lookupKey(lookup);
      found.set(key, [...(found.get(key) ?? []), id]);
    }
  }
  return found;
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += CHUNK) out.push(rows.slice(start, start + CHUNK));
  return out;
}

function itemColumns(rows: Write[]): unknown[] {
  return [
    rows.map((r) => r.id),
    rows.map((r) => r.entry.ids),
    rows.map((r) => r.entry.item.type),
    rows.map((r) => r.entry.item.name),
    rows.map((r) => r.entry.item.description ?? null),
    rows.map((r) => r.entry.item.status ?? null),
    rows.map((r) => r.entry.health),
    rows.map((r) => r.entry.item.ready ?? null),
    rows.map((r) => r.parentId),
    rows.map((r) => r.entry.tags),
    rows.map((r) => r.entry.labels),
    rows.map((r) => r.entry.configJson),
    rows.map((r) => r.entry.item.format),
    rows.map((r) => r.entry.item.source ?? null),
    rows.map((r) => r.entry.hash),
    rows.map((r) => r.entry.createdAt),
    rows.map((r) => r.entry.properties),
  ];
}

/**
 * A diff through the change rules of the entry that found the item (config-db runs its diffs through the same mappings
 * and exclusions as reported changes): the type, severity and summary to store, or null when the rules drop it. What
 * a rule could not judge joins the run's errors.
 */
function mappedDiff(item: ScrapedItem, diff: ContentDiff, errors: ScrapeError[]): Pick<ScrapedChange, 'changeType' | 'severity' | 'summary'> | null {
  const plain = { changeType: 'diff', severity: diff.severity, summary: diff.summary };
  // config-db reads the type annotation alone for a diff (generateDiffChange), not the severity one.
  if (ignoresChangeType(item.labels, 'diff')) return null;
  if (item.diffRules === undefined) return plain;
  const outcome = item.diffRules(
    {
      ...plain,
      item: { type: item.type, externalId: item.externalId },
      externalChangeId: '',
      source: item.source ?? '',
      createdAt: new Date().toISOString(),
      details: {},
      patch: diff.mergePatch,
      diff: diff.diff,
    },
    item,
  );
  errors.push(...outcome.errors);
  return outcome.change;
}

function typeSummary(summary: ScrapeSummary, type: string): TypeSummary {
  const existing = summary.types[type];
  if (existing !== undefined) return existing;
  const created: TypeSummary = { added: 0, updated: 0, unchanged: 0, deleted: 0 };
  summary.types[type] = created;
  return created;
}

/**
 * Stores one run's result for its scraper and says what it did per config type.
 *
 * The comparison happens here rather than in SQL: reading the scraper's ids and hashes is one narrow query, while
 * sending every item's content to the database to be compared there cost more than the whole rescrape may take on
 * the embedded database. Only new and changed items are sent, and each statement writes a whole set of rows.
 */
export async function ingestScrapeResult(pool: pg.Pool, input: IngestInput): Promise<ScrapeSummary> {
  const { scraperId, agentId, result, startedAt } = input;
  const prepared = prepare(result.items);
  const analyzers = [...ANALYZERS];
  const summary: ScrapeSummary = { types: {}, changes: 0, insights: { opened: 0, resolved: 0 }, errors: [...result.errors] };

  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`set local jit = off; set local statement_timeout = '${STATEMENT_TIMEOUT}'`);
    // Two ingests of one scraper at once (a Run Now racing the schedule) would both create the items neither has
    // stored yet; the second waits for the first and then sees its rows.
    await client.query(`select pg_advisory_xact_lock(hashtextextended('config_scraper_ingest/' || $1, 0))`, [scraperId]);

    const stored = (await client.query<StoredRow>(STORED, [scraperId])).rows;
    const storedByKey = new Map<string, StoredRow>();
    for (const row of stored) {
      if (row.ext === null) continue;
      const key = keyOf({ type: row.type, externalId: row.ext });
      if (!storedByKey.has(key)) storedByKey.set(key, row);
    }

    const runIds = new Map<string, string>();
    const created = new Set<string>();
    for (const entry of prepared) {
      const match = storedByKey.get(entry.key);
      const id = match?.id ?? randomUUID();
      runIds.set(entry.key, id);
      if (match === undefined) created.add(id);
    }
    const resolve = (key: ItemKey): string | null => {
      const k = keyOf(key);
      const inRun = runIds.get(k);
      if (inRun !== undefined) return inRun;
      const match = storedByKey.get(k);
      return match !== undefined && !match.deleted ? match.id : null;
    };

    const inserts: Write[] = [];
    const updates: Write[] = [];
    const relink: Array<{ id: string; parentId: string | null }> = [];
    for (const entry of prepared) {
      const id = runIds.get(entry.key) ?? randomUUID();
      const parentId = entry.item.parent === null || entry.item.parent === undefined ? null : resolve(entry.item.parent);
      const match = storedByKey.get(entry.key);
      const counts = typeSummary(summary, entry.item.type);
      if (match === undefined) {
        // A parent created by this same run may be inserted after its child: the child is linked once both exist.
        const parentIsNew = parentId !== null && created.has(parentId);
        inserts.push({ entry, id, parentId: parentIsNew ? null : parentId, wasDeleted: false });
        if (parentIsNew) relink.push({ id, parentId });
        counts.added += 1;
      } else if (match.retired && match.hash === entry.hash) {
        counts.unchanged += 1;
      } else if (match.deleted || match.hash !== entry.hash) {
        updates.push({ entry, id, parentId, wasDeleted: match.deleted });
        if (match.deleted) counts.added += 1;
        else counts.updated += 1;
      } else {
        if (match.parent_id !== parentId) relink.push({ id, parentId });
        counts.unchanged += 1;
      }
    }

    for (const rows of chunks(inserts)) {
      await client.query(INSERT_NEW, [scraperId, agentId, ...itemColumns(rows)]);
    }
    summary.changes += inserts.length;

    const changeRows: ChangeRow[] = [];
    for (const rows of chunks(updates)) {
      const before = new Map(
        (await client.query<{ id: string; config: unknown }>(OLD_CONTENT, [rows.map((r) => r.id)])).rows.map((r) => [r.id, r.config]),
      );
      for (const { entry, id, wasDeleted } of rows) {
        const source = entry.item.source ?? null;
        if (wasDeleted) {
          changeRows.push({ configId: id, changeType: 'CREATE', severity: 'info', source, summary: 'Restored: found again after deletion', diff: null, patches: null, fingerprint: null });
        }
        const diff = diffContent(before.get(id) ?? null, entry.item.config, entry.item.format);
        const change = diff === null ? null : mappedDiff(entry.item, diff, summary.errors);
        if (diff !== null && change !== null) {
          changeRows.push({
            configId: id,
            changeType: change.changeType,
            severity: change.severity,
            source,
            summary: change.summary,
            diff: diff.diff,
            patches: JSON.stringify(diff.patches),
            fingerprint: diff.fingerprint,
          });
        }
      }
      await client.query(UPDATE_CHANGED, [scraperId, agentId, ...itemColumns(rows)]);
    }
    for (const rows of chunks(changeRows)) {
      await client.query(INSERT_CHANGES, [
        rows.map((r) => r.configId),
        rows.map((r) => r.changeType),
        rows.map((r) => r.severity),
        rows.map((r) => r.source),
        rows.map((r) => r.summary),
        rows.map((r) => r.diff),
        rows.map((r) => r.patches),
        rows.map((r) => r.fingerprint),
      ]);
    }
    summary.changes += changeRows.length;

    for (const rows of chunks(relink)) {
      await client.query(LINK_PARENTS, [rows.map((r) => r.id), rows.map((r) => r.parentId)]);
    }

    if (result.complete) {
      const seen = new Set(runIds.values());
      const missing = stored.filter((row) => !row.deleted && !seen.has(row.id));
      for (const rows of chunks(missing)) {
        const gone = await client.query<{ deleted: number; resolved: number }>(DELETE_MISSING, [rows.map((r) => r.id), analyzers]);
        summary.insights.resolved += gone.rows[0]?.resolved ?? 0;
      }
      for (const row of missing) typeSummary(summary, row.type).deleted += 1;
      summary.changes += missing.length;
    }

    const links = new Map<string, { from: string; to: string; relation: string }>();
    const looked = await findLookups(client, result.relationships);
    for (const link of result.relationships) {
      const to = resolve(link.to);
      const froms = 'lookup' in link.from ? (looked.get(lookupKey(link.from.lookup)) ?? []) : [resolve(link.from)];
      for (const from of froms) if (from !== null && to !== null && from !== to) links.set(`${from}/${to}`, { from, to, relation: link.relation });
    }
    if (links.size > 0 || result.complete) {
      const list = [...links.values()];
      await client.query(WRITE_LINKS, [`scraper:${scraperId}`, list.map((l) => l.from), list.map((l) => l.to), list.map((l) => l.relation), result.complete]);
    }

    const events = result.changes.flatMap((event) => {
      const configId = resolve(event.item);
      const createdAt = validInstant(event.createdAt);
      return configId === null || createdAt === null ? [] : [{ event, configId, createdAt }];
    });
    for (const rows of chunks(events)) {
      const written = await client.query(INSERT_EVENTS, [
        rows.map((r) => r.configId),
        rows.map((r) => r.event.externalChangeId),
        rows.map((r) => r.event.changeType),
        rows.map((r) => r.event.severity),
        rows.map((r) => r.event.summary),
        rows.map((r) => (r.event.details === undefined ? null : JSON.stringify(r.event.details))),
        rows.map((r) => r.event.source),
        rows.map((r) => r.createdAt),
      ]);
      summary.changes += written.rowCount ?? 0;
    }

    const now = new Date();
    const findings: Array<{ configId: string; finding: Finding }> = [];
    for (const write of [...inserts, ...updates]) {
      for (const finding of analyzeItem(write.entry.item, { now, json: write.entry.configJson })) findings.push({ configId: write.id, finding });
    }
    for (const rows of chunks(findings)) {
      const opened = await client.query<{ opened: number }>(UPSERT_FINDINGS, [
        scraperId,
        rows.map((f) => f.configId),
        rows.map((f) => f.finding.analyzer),
        rows.map((f) => f.finding.analysis_type),
        rows.map((f) => f.finding.severity),
        rows.map((f) => f.finding.summary),
        rows.map((f) => f.finding.message),
        rows.map((f) => JSON.stringify(f.finding.analysis)),
      ]);
      summary.insights.opened += opened.rows[0]?.opened ?? 0;
    }
    if (updates.length > 0) {
      const updated = new Set(updates.map((u) => u.id));
      const still = findings.filter((f) => updated.has(f.configId));
      const cleared = await client.query(RESOLVE_CLEARED, [
        [...updated],
        analyzers,
        still.map((f) => f.configId),
        still.map((f) => f.finding.analyzer),
      ]);
      summary.insights.resolved += cleared.rowCount ?? 0;
    }

    await client.query(WRITE_STATE, [scraperId, startedAt.toISOString(), result.complete]);
    await client.query('commit');
    return summary;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
