import type pg from 'pg';
import type { ItemHealth } from '../../platform/kubernetes-health';
import type { ScrapeError } from '@opsdeck/shared';

/**
 * The contract between a scraper's sources, the ingest that stores what they found and the scheduler that runs them.
 * A source never writes to the database: it returns what it saw, and the ingest compares that with what is stored.
 */

// The run's summary is read by the web too, so it is declared once in packages/shared.
export type { ScrapeError, ScrapeSummary, TypeSummary } from '@opsdeck/shared';

export type { ItemHealth } from '../../platform/kubernetes-health';

/** An item is known inside its scraper by (type, externalId); the ingest maps that key to a config_items row. */
export interface ItemKey {
  type: string;
  externalId: string;
}

export interface ScrapedItem extends ItemKey {
  name: string;
  /** Other identifiers of the same thing (e.g. a Kubernetes object's namespace/name besides its uid). */
  aliases?: string[];
  description?: string | null;
  status?: string | null;
  health?: ItemHealth | null;
  ready?: boolean | null;
  tags: Record<string, string>;
  labels: Record<string, string>;
  /** Mission Control properties ({name, text, value, links, …}) from the source's `properties` (config_items.properties). */
  properties?: Array<Record<string, unknown>>;
  /** The content as scraped, stored in config_items.config. */
  config: unknown;
  /** How the web renders the content: json, yaml, xml or properties. */
  format: string;
  /** Where it came from, e.g. `file:///srv/a.yaml` or `kubernetes/prod`; shown on the detail page. */
  source?: string | null;
  /** The hard parent (config_items.parent_id), found among this run's items or the scraper's stored ones. */
  parent?: ItemKey | null;
  /** When the thing was created in its own system, if it says. */
  createdAt?: string | null;
  /** The change mappings and exclusions of the source entry that found it, for the diff the ingest computes. */
  diffRules?: DiffChangeRules;
}

/** One change through an entry's `transform.changes`: the change as mapped, or null when it is dropped. */
export type DiffChangeRules = (change: ScrapedChange, item: ScrapedItem) => { change: ScrapedChange | null; errors: ScrapeError[] };

/**
 * Configs anywhere in the catalog, found as config-db's FindConfigIDsByNamespaceNameClass finds them: by the cluster
 * tag, and by type, name and namespace tag where given. A kubernetes source's `relationships` name theirs this way.
 */
export interface CatalogLookup {
  cluster: string;
  type?: string;
  name?: string;
  namespace?: string;
}

/**
 * A soft link (config_relationships, selector_id `scraper:<scraperId>`) between two items of the scraper, or from
 * every config a catalog lookup finds to one of them.
 */
export interface ScrapedRelationship {
  from: ItemKey | { lookup: CatalogLookup };
  to: ItemKey;
  relation: string;
}

/** A change the source system itself reported (a Kubernetes event), stored as-is, not computed by diff. */
export interface ScrapedChange {
  item: ItemKey;
  /** Unique per item; a change seen again is not stored twice. */
  externalChangeId: string;
  changeType: string;
  severity: 'info' | 'warning' | 'low' | 'medium' | 'high' | 'blocker' | 'critical';
  summary: string;
  details?: Record<string, unknown>;
  source: string;
  createdAt: string;
  /** A diff change's merge patch and unified diff, as the ingest computed them; a reported change has neither. */
  patch?: unknown;
  diff?: string;
}

export interface ScrapeResult {
  items: ScrapedItem[];
  relationships: ScrapedRelationship[];
  changes: ScrapedChange[];
  errors: ScrapeError[];
  /**
   * True only when the source saw everything it is responsible for. Items missing from an incomplete result are
   * never deleted: a source that failed half-way must not lose what is stored.
   */
  complete: boolean;
}

export interface SourceContext {
  scraperId: string;
  /** The console's pool: for connection lookups only, never for writing results. */
  pool: pg.Pool;
  /** Opens sealed secrets (`sealed:` values of the spec) and connection credentials. */
  secretKey: Buffer;
  /** Absolute, real paths under which file and kubernetesFile sources may read (OPSDECK_SCRAPE_ROOTS). */
  roots: readonly string[];
  /** The console's own database URL, which an sql source must refuse to query; null for the embedded database. */
  ownDatabaseUrl: string | null;
  /** Aborted when the run's timeout passes or the server stops. */
  signal: AbortSignal;
  /** The scraper's namespace, where a `valueFrom` finds its connection (ADR 0075). */
  namespace?: string;
}

/** One entry of a spec's source list (`file: [...]`, `http: [...]`, ...): kind is the key, index its position. */
export interface SourceEntry {
  kind: string;
  index: number;
  spec: Record<string, unknown>;
  /** The spec's `full: true` (config-db's full mode, sources/full-mode.ts); read by the sources that extract items. */
  full?: boolean;
}

export type SourceRunner = (entry: SourceEntry, context: SourceContext) => Promise<ScrapeResult>;

/** Spec 001 §3 retention, durations already in milliseconds. */
export interface Retention {
  /** Per change type name (e.g. `diff`, `Pulled`): keep at most `count` per item, none older than `maxAgeMs`. */
  changes: Array<{ name: string; maxAgeMs: number | null; count: number | null }>;
  /** Per config type: drop items created, last updated or deleted longer ago than these. */
  types: Array<{ name: string; createdAgeMs: number | null; updatedAgeMs: number | null; deletedAgeMs: number | null }>;
}

/** What the scheduler needs from a stored spec, after the save-time rules have passed. */
export interface ParsedScraperSpec {
  sources: SourceEntry[];
  /** The spec's own schedule, or null to use the kind's default. */
  schedule: string | null;
  retention: Retention;
  timeoutMs: number;
}
