/** What one scraper run did to the stored items of one config type (job_history.details.scrape_summary.types). */
export interface TypeSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

export interface ScrapeError {
  /** Which source and what in it, e.g. `file[0] /srv/bad.yaml` or `kubernetes[0] pods`. */
  where: string;
  message: string;
}

/** job_history.details.scrape_summary: written by a scraper run on the server, read by the scraper's Job History tab. */
export interface ScrapeSummary {
  types: Record<string, TypeSummary>;
  changes: number;
  insights: { opened: number; resolved: number };
  errors: ScrapeError[];
}
