import os from 'node:os';
import type pg from 'pg';
import type { RowWith, TableRow } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { resolveConnection } from '../connections';
import { scrubSecrets, SecretCollector } from '../health';
import { openScraperSpec } from './scraper-secrets';
import { ingestScrapeResult } from './ingest';
import { applyRetention } from './retention';
import { parseScraperSpec } from './spec';
import { sourceRunners, type SourceRegistry } from './sources';
import { withoutRoots } from './sources/shown-paths';
import { applyTransform } from './transform/transform';
import { prepareJavaScriptFor } from '../../platform/javascript/sandboxed-javascript';
import type { ParsedScraperSpec, ScrapeError, ScrapeResult, ScrapeSummary, SourceContext, SourceEntry } from './types';

/** The job_history name of every scrape run (the Job History filter lists names); resource_name tells scrapers apart. */
export const SCRAPE_JOB_NAME = 'Scraper';
export const SCRAPE_RESOURCE_TYPE = 'config_scraper';
/** Sources of one run at once: enough to overlap slow APIs, few enough not to flood one cluster or the pool. */
const SOURCE_CONCURRENCY = 4;
/** job_history rows stay small enough for the list and its details modal whatever a broken source reports. */
const MAX_STORED_ERRORS = 100;
const MAX_ERROR_LENGTH = 4000;

/**
 * The columns of the scraper a run reads (the web's `ScraperRow` is the list view's row); the spec is whatever a
 * caller holds, since the run parses it itself.
 */
export type ScraperToRun = RowWith<Pick<TableRow<'config_scrapers'>, 'id' | 'name' | 'spec' | 'agent_id'>, { spec: unknown }> & {
  /** Where `valueFrom` references look for their connection first (the bare name when absent). */
  namespace?: string;
};

export interface RunScrapeDeps {
  pool: pg.Pool;
  secretKey: Buffer;
  roots: readonly string[];
  ownDatabaseUrl: string | null;
  /** Defaults to every kind this server runs; tests give their own. */
  runners?: SourceRegistry;
  /** Aborted when the server stops (or the scheduler loses the lease); the spec's timeout is added to it. */
  signal?: AbortSignal;
}

/** STOPPED: the server stopped, or another worker took the scraper over, before the sources finished. */
export type ScrapeStatus = 'SUCCESS' | 'WARNING' | 'FAILED' | 'STOPPED';

export interface ScrapeRunOutcome {
  jobId: string;
  status: ScrapeStatus;
  /** Null when nothing was ingested (the spec did not parse, the run timed out or failed). */
  summary: ScrapeSummary | null;
  errors: ScrapeError[];
  itemsSeen: number;
  durationMs: number;
  /** The parsed spec, for the scheduler's next runtime; null when it did not parse. */
  spec: ParsedScraperSpec | null;
}

class ScrapeStopped extends Error {}

class ScrapeTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`The scrape did not finish within its timeout of ${Math.round(timeoutMs / 1000)} s and was stopped`);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.details === null ? error.message : `${error.message}: ${error.details}`;
  return error instanceof Error ? error.message : String(error);
}

function failedResult(where: string, error: unknown): ScrapeResult {
  return { items: [], relationships: [], changes: [], errors: [{ where, message: messageOf(error) }], complete: false };
}

/** Every `connection://` reference anywhere in the spec, to learn the credentials the sources will be given. */
function connectionReferences(value: unknown, found: Set<string>): Set<string> {
  if (typeof value === 'string') {
    if (value.startsWith('connection://')) found.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) connectionReferences(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) connectionReferences(item, found);
  }
  return found;
}

/**
 * The sources open the spec's secrets and resolve its connections themselves; the run opens them too, only to know
 * what to scrub from the errors and summary it stores, since a source's error text may quote a URL or a response.
 */
async function secretsOf(deps: RunScrapeDeps, scraperId: string, spec: unknown): Promise<string[]> {
  const secrets = new SecretCollector();
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    try {
      secrets.addOpenedSpec(spec, openScraperSpec(deps.secretKey, scraperId, spec as Record<string, unknown>));
    } catch {
      // A secret that cannot be opened is one no source can leak either; the source reports it as its error.
    }
  }
  for (const reference of connectionReferences(spec, new Set())) {
    try {
      secrets.addConnection(await resolveConnection(deps.pool, deps.secretKey, reference));
    } catch {
      // A missing connection has no credentials to hide; the source that needs it reports it.
    }
  }
  return secrets.values();
}

async function runSources(entries: readonly SourceEntry[], runners: SourceRegistry, context: SourceContext): Promise<ScrapeResult[]> {
  const results: ScrapeResult[] = new Array<ScrapeResult>(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next;
      next += 1;
      const entry = entries[index];
      if (entry === undefined) continue;
      const where = `${entry.kind}[${entry.index}]`;
      const runner = runners.get(entry.kind);
      if (runner === undefined) {
        results[index] = failedResult(where, new Error(`source kind '${entry.kind}' is not run by this server`));
        continue;
      }
      try {
        await prepareJavaScriptFor(entry.spec);
        results[index] = applyTransform(entry.spec, await runner(entry, context), where, context.signal);
      } catch (error) {
        results[index] = failedResult(where, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SOURCE_CONCURRENCY, entries.length) }, () => worker()));
  return results;
}

/** One result for the ingest; it is complete only when every source saw all it is responsible for. */
export function mergeResults(results: readonly ScrapeResult[]): ScrapeResult {
  return {
    items: results.flatMap((result) => result.items),
    relationships: results.flatMap((result) => result.relationships),
    changes: results.flatMap((result) => result.changes),
    errors: results.flatMap((result) => result.errors),
    complete: results.every((result) => result.complete),
  };
}

/**
 * A source that ignores its signal still cannot hold the run (and the scraper's lease, and a server that is stopping)
 * past the timeout or the stop.
 */
async function withinTimeout<T>(work: Promise<T>, timeoutMs: number, controller: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const timeout = new ScrapeTimeout(timeoutMs);
      // Rejected before the abort, whose listener below would otherwise report a stop.
      reject(timeout);
      controller.abort(timeout);
    }, timeoutMs);
    onAbort = () => reject(new ScrapeStopped(`The scrape was stopped: ${messageOf(controller.signal.reason)}`));
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cut]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) controller.signal.removeEventListener('abort', onAbort);
  }
}

async function startJob(pool: pg.Pool, scraper: ScraperToRun, startedAt: Date): Promise<string> {
  const row = await pool.query<{ id: string }>(
    `insert into job_history (name, resource_type, resource_id, status, hostname, time_start, agent_id)
     values ($1, $2, $3, 'RUNNING', $4, $5, $6) returning id`,
    [SCRAPE_JOB_NAME, SCRAPE_RESOURCE_TYPE, scraper.id, os.hostname(), startedAt.toISOString(), scraper.agent_id],
  );
  const id = row.rows[0]?.id;
  if (id === undefined) throw new Error('job_history insert returned no id');
  return id;
}

/** What is kept of the errors; the roots' absolute paths are cut from them too, whichever code wrote the text. */
function stored(errors: readonly ScrapeError[], roots: readonly string[]): ScrapeError[] {
  return errors
    .slice(0, MAX_STORED_ERRORS)
    .map((error) => ({ where: withoutRoots(error.where, roots), message: withoutRoots(error.message, roots).slice(0, MAX_ERROR_LENGTH) }));
}

/**
 * One run of one scraper: parse the stored spec, run its sources (a few at once, all within the spec's timeout),
 * ingest what they saw, apply retention, and record it all in one job_history row that reads RUNNING while the run
 * lasts. It never throws for anything a spec or a source does: a failure is the FAILED row. A source that fails or a
 * run that times out loses no stored item, since only a complete result deletes.
 */
export async function runScrape(deps: RunScrapeDeps, scraper: ScraperToRun): Promise<ScrapeRunOutcome> {
  const startedAt = new Date();
  const jobId = await startJob(deps.pool, scraper, startedAt);
  let status: ScrapeStatus = 'FAILED';
  let summary: ScrapeSummary | null = null;
  let errors: ScrapeError[] = [];
  let itemsSeen = 0;
  let spec: ParsedScraperSpec | null = null;
  const controller = new AbortController();
  const stop = (): void => controller.abort(deps.signal?.reason ?? new Error('the server is stopping'));
  if (deps.signal?.aborted === true) stop();
  deps.signal?.addEventListener('abort', stop, { once: true });
  let secrets: string[] = [];
  try {
    secrets = await secretsOf(deps, scraper.id, scraper.spec);
    spec = parseScraperSpec(scraper.spec);
    const context: SourceContext = {
      scraperId: scraper.id,
      pool: deps.pool,
      secretKey: deps.secretKey,
      roots: deps.roots,
      ownDatabaseUrl: deps.ownDatabaseUrl,
      signal: controller.signal,
      ...(scraper.namespace === undefined ? {} : { namespace: scraper.namespace }),
    };
    const results = await withinTimeout(runSources(spec.sources, deps.runners ?? sourceRunners, context), spec.timeoutMs, controller);
    // Stopped from outside (the server stops, or the lease went to another worker): what the sources saw is partial.
    if (controller.signal.aborted) throw new ScrapeStopped(`The scrape was stopped: ${messageOf(controller.signal.reason)}`);
    const merged = mergeResults(results);
    itemsSeen = merged.items.length;
    errors = [...merged.errors];
    summary = await ingestScrapeResult(deps.pool, { scraperId: scraper.id, agentId: scraper.agent_id, result: merged, startedAt });
    // The summary's errors are the sources' and whatever the ingest itself could not store.
    errors = [...summary.errors];
    try {
      await applyRetention(deps.pool, scraper.id, spec.retention);
    } catch (error) {
      errors.push({ where: 'retention', message: messageOf(error) });
    }
    status = errors.length === 0 ? 'SUCCESS' : itemsSeen === 0 && merged.changes.length === 0 ? 'FAILED' : 'WARNING';
  } catch (error) {
    status = error instanceof ScrapeStopped ? 'STOPPED' : 'FAILED';
    errors.push({ where: spec === null ? 'spec' : 'run', message: messageOf(error) });
  } finally {
    deps.signal?.removeEventListener('abort', stop);
  }
  const durationMs = Date.now() - startedAt.getTime();
  const kept = stored(errors, deps.roots);
  const details = scrubSecrets(
    { scrape_summary: summary === null ? null : { ...summary, errors: stored(summary.errors, deps.roots) }, errors: kept.map((error) => `${error.where}: ${error.message}`) },
    secrets,
  );
  await deps.pool.query(
    `update job_history set status = $2, success_count = $3, error_count = $4, duration_millis = $5, time_end = now(), details = $6
      where id = $1`,
    [jobId, status, itemsSeen, errors.length, durationMs, JSON.stringify(details)],
  );
  return { jobId, status, summary, errors: scrubSecrets(kept, secrets), itemsSeen, durationMs, spec };
}
