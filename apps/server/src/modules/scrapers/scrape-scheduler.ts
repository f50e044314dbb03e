import type pg from 'pg';
import { RUNNABLE_SCRAPER_KINDS, SCRAPER_KINDS } from '@opsdeck/shared';
import { LeaseScheduler, type LeaseSchedulerSettings, type LeaseTables } from '../../platform/lease-scheduler';
import { nextRuntime, parseSchedule } from '../health';
import { runScrape, type RunScrapeDeps, type ScrapeRunOutcome, type ScraperToRun } from './run-scrape';
import type { ParsedScraperSpec } from './types';

/** Spec 001 §9: the kubernetes scraper's schedule defaults to @every 30m. */
export const KUBERNETES_DEFAULT_SCHEDULE = '@every 30m';
/**
 * Spec 001 §9 names no default for the other kinds; file, HTTP and SQL sources change on a slower rhythm than a
 * cluster, so they run hourly unless told otherwise.
 */
export const DEFAULT_SCRAPE_SCHEDULE = '@every 1h';
/** Spec 001 §9: max in flight defaults to 64. */
export const MAX_IN_FLIGHT = 64;

export interface ScrapeSchedulerOptions extends Omit<RunScrapeDeps, 'signal'>, LeaseSchedulerSettings<ScrapeRunOutcome> {}

/** The schedule a scraper runs on: its column, then its spec's own, then its kind's default. */
export function effectiveScrapeSchedule(column: string | null, spec: ParsedScraperSpec | null): string {
  if (column !== null && column.trim() !== '') return column;
  if (spec?.schedule != null && spec.schedule.trim() !== '') return spec.schedule;
  if (spec?.sources.some((source) => source.kind === 'kubernetes') === true) return KUBERNETES_DEFAULT_SCHEDULE;
  return DEFAULT_SCRAPE_SCHEDULE;
}

function nextFor(column: string | null, spec: ParsedScraperSpec | null, after: Date): Date {
  try {
    return nextRuntime(parseSchedule(effectiveScrapeSchedule(column, spec)), after);
  } catch {
    return nextRuntime(parseSchedule(DEFAULT_SCRAPE_SCHEDULE), after);
  }
}

/**
 * A stored spec naming a kind this server does not run predates the save rule that refuses it (or is the demo's
 * pictured estate): on a schedule it would only fail again and again, so it is left out. Run Now still runs it, and
 * its job history says which kind is not run.
 */
const UNRUN_KINDS: readonly string[] = SCRAPER_KINDS.filter((kind) => !(RUNNABLE_SCRAPER_KINDS as readonly string[]).includes(kind));

interface ClaimedScraper extends ScraperToRun {
  schedule: string | null;
}

/**
 * Makes config_scrapers_schedule hold one row per live scraper this server runs (not those of an agent, nor those
 * naming a kind it does not run), in one statement: a new or edited scraper is due at once, one deleted or no longer
 * run loses its row. Unchanged rows are not written. Returns how many rows it added or made due.
 */
export async function syncScrapeSchedule(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ due: number }>(
    `with live as (
       select s.id, s.updated_at from config_scrapers s
        where s.deleted_at is null and s.agent_id is null
          and not (s.spec ?| $1::text[]) and not (coalesce(s.spec -> 'spec', '{}'::jsonb) ?| $1::text[])
     ), removed as (
       delete from config_scrapers_schedule c
        where not exists (select 1 from live where live.id = c.scraper_id)
          -- A Run Now of a scraper that is not scheduled keeps its row until that run has been claimed.
          and (c.run_requested_at is null
               or not exists (select 1 from config_scrapers s where s.id = c.scraper_id and s.deleted_at is null and s.agent_id is null))
       returning 1
     ), due as (
       insert into config_scrapers_schedule as c (scraper_id, scraper_updated_at, next_runtime)
       select live.id, live.updated_at, now() from live
       on conflict (scraper_id) do update set scraper_updated_at = excluded.scraper_updated_at, next_runtime = now()
        where c.scraper_updated_at is distinct from excluded.scraper_updated_at
       returning 1
     )
     select (select count(*) from due)::integer as due, (select count(*) from removed)::integer as removed`,
    [UNRUN_KINDS],
  );
  return result.rows[0]?.due ?? 0;
}

/**
 * Makes a live scraper of this server due now (Run Now); false when there is no such scraper. A run under way keeps
 * going and the scraper runs again as it ends.
 */
export async function requestScrape(pool: pg.Pool, scraperId: string): Promise<boolean> {
  const result = await pool.query(
    `insert into config_scrapers_schedule as c (scraper_id, scraper_updated_at, next_runtime, run_requested_at)
     select s.id, s.updated_at, now(), now() from config_scrapers s where s.id = $1 and s.deleted_at is null and s.agent_id is null
     on conflict (scraper_id) do update set next_runtime = now(), run_requested_at = now()`,
    [scraperId],
  );
  return (result.rowCount ?? 0) > 0;
}

const SCRAPE_TABLES: LeaseTables = {
  schedule: 'config_scrapers_schedule',
  key: 'scraper_id',
  subject: 'config_scrapers',
  columns: ['id', 'name', 'namespace', 'spec', 'schedule', 'agent_id'],
  nullColumns: ['deleted_at'],
  noun: 'scraper',
};

/**
 * Runs due scrapers on leases (see LeaseScheduler); a scrape whose lease was lost, or that is under way when the
 * scheduler stops, is aborted through its signal.
 */
export class ScrapeScheduler extends LeaseScheduler<ClaimedScraper, ScrapeRunOutcome> {
  constructor(options: ScrapeSchedulerOptions) {
    const { pool, secretKey, roots, ownDatabaseUrl, runners, ...settings } = options;
    super({
      ...settings,
      pool,
      tables: SCRAPE_TABLES,
      run: (scraper, { signal }) => runScrape({ pool, secretKey, roots, ownDatabaseUrl, runners, signal }, scraper),
      nextRuntime: (scraper, outcome) => nextFor(scraper.schedule, outcome?.spec ?? null, new Date()),
      defaultMaxInFlight: MAX_IN_FLIGHT,
    });
  }
}
