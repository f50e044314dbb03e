import type pg from 'pg';

export interface SummaryCacheOptions {
  /** Answers kept at most; the least recently used goes first. */
  maxEntries: number;
  /** An answer older than this is computed again even if nothing was written, so the time windows do not drift. */
  maxAgeMs: number;
  /**
   * How old an answer may be and still be served while a fresh one is computed behind it: spec 002 §9 holds catalog
   * data fresh for 300000 ms, so a reader gets at most that stale an answer at once instead of waiting a second.
   */
  staleMs: number;
  now: () => number;
}

/** What the cache served and when that answer was computed (the route reports its age). */
export interface CachedAnswer<T> {
  value: T;
  computedAt: number;
}

interface Entry<T> {
  version: string;
  storedAt: number;
  value: T;
}

export const SUMMARY_CACHE_DEFAULTS: SummaryCacheOptions = { maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: () => Date.now() };

/**
 * The sequences whose number moves on every write an answer depends on: the catalog's (migration 0084: config_items,
 * config_changes, config_analysis) and the health summary's (migration 0126: what its counts and groups read). A
 * fixed list, so the name put into the statement is never a caller's text.
 */
export type WriteVersionSequence = 'catalog_write_version' | 'health_summary_version';

/** The sequence's number now. Reading a sequence takes no lock and waits for no writer. */
export async function writeVersion(pool: pg.Pool, sequence: WriteVersionSequence): Promise<string> {
  const result = await pool.query<{ last_value: string; is_called: boolean }>(`select last_value, is_called from ${sequence}`);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`${sequence} has no row`);
  return `${row.last_value}:${String(row.is_called)}`;
}

/**
 * One cache per database for one kind of answer: the server has one pool, the tests one per server they start, and a
 * pool that is gone takes its cache with it.
 */
export class PoolCaches<T> {
  private readonly caches = new WeakMap<pg.Pool, SummaryCache<T>>();

  for(pool: pg.Pool): SummaryCache<T> {
    let cache = this.caches.get(pool);
    if (cache === undefined) {
      cache = new SummaryCache<T>();
      this.caches.set(pool, cache);
    }
    return cache;
  }
}

/** Object keys sorted at every depth, so two bodies that differ only in key order share an entry. */
export function normalizedKey(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (field === null || typeof field !== 'object' || Array.isArray(field)) return field;
    const record = field as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((name) => [name, record[name]]));
  });
}

/**
 * Answers of one expensive read, reused while the catalog has not been written and they are young. The version is
 * read before the computation starts, so a write during it leaves the entry already out of date.
 */
export class SummaryCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();
  /** Keys with a refresh running behind a kept answer: one each, however often the catalog is written meanwhile. */
  private readonly refreshing = new Set<string>();

  constructor(private readonly options: SummaryCacheOptions = SUMMARY_CACHE_DEFAULTS) {}

  /**
   * The answer for `key`: a fresh one from the cache, else (when `allowStale` and one younger than `staleMs` is kept)
   * the kept one at once with a recomputation started behind it, else a newly computed one.
   */
  async get(key: string, version: string, compute: () => Promise<T>, allowStale = false): Promise<CachedAnswer<T>> {
    const entry = this.entries.get(key);
    const now = this.options.now();
    if (entry !== undefined && entry.version === version && now - entry.storedAt < this.options.maxAgeMs) {
      // Moved to the end, so the Map's order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return { value: entry.value, computedAt: entry.storedAt };
    }
    if (allowStale && entry !== undefined && now - entry.storedAt < this.options.staleMs) {
      // The reader already has an answer; a failed refresh leaves the kept one and is retried by the next reader. While
      // one runs, a busy scraper's later writes start no other: the next reader after it ends starts the next.
      if (!this.refreshing.has(key)) {
        this.refreshing.add(key);
        this.compute(key, version, now, compute)
          .catch(() => undefined)
          .finally(() => this.refreshing.delete(key));
      }
      return { value: entry.value, computedAt: entry.storedAt };
    }
    return { value: await this.compute(key, version, now, compute), computedAt: now };
  }

  /** Identical requests that miss at the same version wait for one computation instead of each running it. */
  private compute(key: string, version: string, startedAt: number, compute: () => Promise<T>): Promise<T> {
    const pendingKey = `${version}\u0000${key}`;
    const running = this.pending.get(pendingKey);
    if (running !== undefined) return running;
    const computation = compute()
      .then((value) => {
        this.store(key, { version, storedAt: startedAt, value });
        return value;
      })
      .finally(() => this.pending.delete(pendingKey));
    this.pending.set(pendingKey, computation);
    return computation;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: Entry<T>): void {
    const current = this.entries.get(key);
    // A slower computation that started earlier must not replace a newer answer.
    if (current !== undefined && current.storedAt > entry.storedAt) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
