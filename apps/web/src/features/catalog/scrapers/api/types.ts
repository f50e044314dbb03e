import type { RowWith, ScrapeError, ScrapeSummary, TableRow, TypeSummary, ViewRow } from '@opsdeck/shared';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import type { ResourceOrigin } from '@/lib/resource-origin/resource-origin';

export type { ScrapeError, ScrapeSummary, TypeSummary } from '@opsdeck/shared';

/** A row of config_scrapers_with_status: the scraper and its latest job, its spec read as an object. */
export type ScraperRow = ResourceOrigin &
  RowWith<
    Pick<ViewRow<'config_scrapers_with_status'>, 'id' | 'name' | 'spec' | 'labels' | 'schedule' | 'last_runtime' | 'job_last_failed' | 'job_status' | 'job_details'>,
    { spec: Record<string, unknown> | null; labels: Record<string, string> | null }
  >;

/** One scraper as its detail page edits it. */
export type Scraper = RowWith<
  Pick<TableRow<'config_scrapers'>, 'id' | 'name' | 'description' | 'spec' | 'source' | 'updated_at'>,
  { spec: Record<string, unknown>; source: string | null }
>;

/** One run of a scraper, newest first on the Job History tab, with the details its summary is read from. */
export type ScraperJob = JobHistoryEntry;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function typeSummary(value: unknown): TypeSummary {
  const record = isRecord(value) ? value : {};
  return { added: count(record.added), updated: count(record.updated), unchanged: count(record.unchanged), deleted: count(record.deleted) };
}

function scrapeError(value: unknown): ScrapeError | null {
  if (isRecord(value) && typeof value.message === 'string') return { where: typeof value.where === 'string' ? value.where : '', message: value.message };
  return typeof value === 'string' ? { where: '', message: value } : null;
}

/**
 * The run's summary read out of its details. Details are free JSON (older runs, other writers), so every part is
 * checked and a missing one reads as zero; null when the run left no summary at all.
 */
export function scrapeSummaryOf(details: unknown): ScrapeSummary | null {
  if (!isRecord(details) || !isRecord(details.scrape_summary)) return null;
  const summary = details.scrape_summary;
  const types = isRecord(summary.types) ? Object.fromEntries(Object.entries(summary.types).map(([type, value]) => [type, typeSummary(value)])) : {};
  const insights = isRecord(summary.insights) ? summary.insights : {};
  const errors = Array.isArray(summary.errors) ? summary.errors.map(scrapeError).filter((error): error is ScrapeError => error !== null) : [];
  return { types, changes: count(summary.changes), insights: { opened: count(insights.opened), resolved: count(insights.resolved) }, errors };
}
