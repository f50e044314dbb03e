/** Spec 002 §2.1: the catalog's virtual rows are 37 px high and 20 rows are rendered beyond each edge of the view. */
export const CATALOG_ROW_HEIGHT_PX = 37;
export const CATALOG_OVERSCAN = 20;

/**
 * Spec 002 §2.1 and issue #11: an item last scraped more than an hour ago is flagged stale. §9's "stale after
 * 300000 ms" is the freshness of the catalog queries (CATALOG_STALE_TIME_MS in the shared package), not this flag;
 * the demo seed also counts an item stale after 60 minutes.
 */
export const STALE_SCRAPE_AFTER_MS = 60 * 60 * 1000;

/** Spec 002 §2.1: the cost badge shows when the last day differs from the 30-day daily average by more than 10 %. */
export const COST_CHANGE_THRESHOLD = 0.1;
const COST_TWO_DECIMALS_BELOW = 10;

export function isStale(lastScraped: string | null | undefined, now: number = Date.now()): boolean {
  if (!lastScraped) return false;
  const time = Date.parse(lastScraped);
  return !Number.isNaN(time) && now - time > STALE_SCRAPE_AFTER_MS;
}

/** Costs under 10 keep 2 decimals, larger ones are whole: '$4.20', '$1,234'. */
export function formatCost(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return '';
  const decimals = Math.abs(value) < COST_TWO_DECIMALS_BELOW ? 2 : 0;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}

/** The 1-day cost against the 30-day daily average, as a fraction (0.25 is 25 % up); null within 10 % or without data. */
export function costChange(cost1d: number | null | undefined, cost30d: number | null | undefined): number | null {
  if (!cost1d || !cost30d) return null;
  const average = cost30d / 30;
  const change = (cost1d - average) / average;
  return Math.abs(change) > COST_CHANGE_THRESHOLD ? change : null;
}

/** `cluster__tag` reads 'cluster', `config_class` 'Class'. */
export function groupHeader(entry: string): string {
  const named: Record<string, string> = {
    config_class: 'Class',
    type: 'Type',
    status: 'Status',
    health: 'Health',
    agent_id: 'Agent',
    scraper_id: 'Scraper',
  };
  return named[entry] ?? entry.replace(/__(tag|label)$/, '');
}
