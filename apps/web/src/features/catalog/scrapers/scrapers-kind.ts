import type { Resource } from '@opsdeck/shared';

export const SCRAPERS_TABLE = 'config_scrapers';
/** The list's view: each scraper with its latest job (0009_operations_views.sql). */
export const SCRAPERS_LIST_VIEW = 'config_scrapers_with_status';
export const SCRAPERS_RESOURCE: Resource = 'config_scrapers';
/** What the page calls itself, and the Settings menu entry that opens it. */
export const SCRAPERS_TITLE = 'Catalog Scrapers';

export const SCRAPERS_PATH = '/catalog/scrapers';

export function scraperPath(id: string): string {
  return `${SCRAPERS_PATH}/${id}`;
}
