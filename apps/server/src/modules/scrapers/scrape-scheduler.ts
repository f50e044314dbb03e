import type pg from 'pg';
import { RUNNABLE_SCRAPER_KINDS, SCRAPER_KINDS } from '@opsdeck/shared';
import { leaseOwner, PollLoop } from '../../platform/poll-loop';
import { nextRuntime, parseSchedule } from '../health';
import { runScrape, type RunScrapeDeps, type ScrapeRunOutcome, type ScraperRow } from './run-scrape';
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
/** Short, and renewed while the run lasts: a crashed worker's scraper is picked up again within a minute or two. */
const LEASE_SECONDS = 120;
const RENEW_MS = 30_000;

export interface ScrapeSchedulerOptions extends Omit<RunScrapeDeps, 'signal'> {
  maxInFlight?: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each run is recorded (tests wait on it). */
  onRun?: (scraperId: string, outcome: ScrapeRunOutcome) => void;
}

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

interface ClaimedScraper extends ScraperRow {
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

/**
 * Runs due scrapers. Each pass claims what it has room for with a short single-statement lease (FOR UPDATE SKIP
 * LOCKED, never a transaction held while a scrape runs: PGlite has one backend), so exactly one worker across all
 * processes runs a scraper, and one scraper never runs twice at once. The lease is renewed while the run lasts; a run
 * whose lease was lost is aborted rather than left to race the worker that took it over.
 */
export class ScrapeScheduler {
  readonly owner = leaseOwner();
  private readonly maxInFlight: number;
  private inflight = 0;
  private readonly loop: PollLoop;

  constructor(private readonly options: ScrapeSchedulerOptions) {
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.loop = new PollLoop({ pass: () => this.poll(), pollMs: options.pollMs ?? 1000, onError: options.onError });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling, aborts running scrapes and waits for them to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop(new Error('the server is stopping'));
  }

  /** Polls at once (Run Now, or a scraper saved). */
  wake(): void {
    this.loop.wake();
  }

  /** Claims the due scrapers it has room for, runs them and waits for them; returns what each run recorded. */
  async runDue(): Promise<Map<string, ScrapeRunOutcome>> {
    const claimed = await this.claim(this.maxInFlight - this.inflight);
    const outcomes = new Map<string, ScrapeRunOutcome>();
    await Promise.all(
      claimed.map(async (scraper) => {
        const outcome = await this.runClaimed(scraper);
        if (outcome !== null) outcomes.set(scraper.id, outcome);
      }),
    );
    return outcomes;
  }

  private async poll(): Promise<void> {
    for (const scraper of await this.claim(this.maxInFlight - this.inflight)) {
      this.loop.track(this.runClaimed(scraper).then(() => undefined));
    }
  }

  private async claim(limit: number): Promise<ClaimedScraper[]> {
    if (limit <= 0) return [];
    const result = await this.options.pool.query<ClaimedScraper>(
      `with due as (
         select c.scraper_id from config_scrapers_schedule c
          where c.next_runtime <= now() and (c.lease_expires_at is null or c.lease_expires_at < now())
          order by c.next_runtime
          limit $1
          for update skip locked
       )
       update config_scrapers_schedule c
          set lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3), running = true, last_runtime = now(),
              run_requested_at = null
         from due, config_scrapers s
        where c.scraper_id = due.scraper_id and s.id = c.scraper_id and s.deleted_at is null
       returning s.id, s.name, s.spec, s.schedule, s.agent_id`,
      [limit, this.owner, LEASE_SECONDS],
    );
    return result.rows;
  }

  /** Never rejects: whatever goes wrong is reported to onError, and the lease is released for the next run. */
  private async runClaimed(scraper: ClaimedScraper): Promise<ScrapeRunOutcome | null> {
    this.inflight += 1;
    const lost = new AbortController();
    const signal = AbortSignal.any([this.loop.signal, lost.signal]);
    const renewal = setInterval(() => {
      this.renew(scraper.id).then(
        (held) => {
          if (!held) lost.abort(new Error('another worker took over this scraper'));
        },
        (error: unknown) => this.options.onError?.(error),
      );
    }, RENEW_MS);
    let outcome: ScrapeRunOutcome | null = null;
    try {
      const { pool, secretKey, roots, ownDatabaseUrl, runners } = this.options;
      outcome = await runScrape({ pool, secretKey, roots, ownDatabaseUrl, runners, signal }, scraper);
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      clearInterval(renewal);
      this.inflight -= 1;
    }
    await this.release(scraper, outcome).catch((error: unknown) => this.options.onError?.(error));
    if (outcome !== null) this.options.onRun?.(scraper.id, outcome);
    return outcome;
  }

  private async renew(scraperId: string): Promise<boolean> {
    const result = await this.options.pool.query(
      `update config_scrapers_schedule set lease_expires_at = now() + make_interval(secs => $3)
        where scraper_id = $1 and lease_owner = $2`,
      [scraperId, this.owner, LEASE_SECONDS],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** A Run Now that came while the scraper ran leaves it due at once; otherwise it waits for its schedule. */
  private async release(scraper: ClaimedScraper, outcome: ScrapeRunOutcome | null): Promise<void> {
    const next = nextFor(scraper.schedule, outcome?.spec ?? null, new Date());
    await this.options.pool.query(
      `update config_scrapers_schedule
          set lease_owner = null, lease_expires_at = null, running = false, run_requested_at = null,
              next_runtime = case when run_requested_at is not null then now() else $3 end
        where scraper_id = $1 and lease_owner = $2`,
      [scraper.id, this.owner, next.toISOString()],
    );
  }
}
