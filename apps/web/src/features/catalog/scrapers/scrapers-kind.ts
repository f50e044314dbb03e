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

/** Router state the Add dialog navigates with: the server starts a new scraper's first run at once. */
export const FIRST_RUN_STATE = { firstRun: true } as const;

/** Whether the page was opened by the Add dialog, so it awaits the first run as it would a Run Now. */
export function asksForFirstRun(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'firstRun' in state && state.firstRun === true;
}
