import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { SCRAPERS_LIST_VIEW, SCRAPERS_TABLE } from '../scrapers-kind';
import { scraperKeys } from './keys';
import type { Scraper, ScraperRow } from './types';

/** Spec 001 §9: a list shows the newest 100. */
export const SCRAPERS_LIMIT = 100;

const LIST_SELECT = 'id,name,spec,labels,schedule,source,agent_id,agent,created_by,created_at,updated_at,last_runtime,job_last_failed,job_status,job_details';

export async function getScrapers(signal?: AbortSignal): Promise<ScraperRow[]> {
  const query = db.from(SCRAPERS_LIST_VIEW).select(LIST_SELECT).is('deleted_at', null).order('created_at', { ascending: false }).limit(SCRAPERS_LIMIT);
  // The view's agent is JSON, read as ResourceOrigin's agent reference.
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ScraperRow[], { merge: false }>();
  return data;
}

export function useScrapersQuery() {
  // Caching time 0 (spec 002 §7): a list opened after an edit elsewhere is always fetched again.
  return useQuery({ queryKey: scraperKeys.list(), queryFn: ({ signal }) => getScrapers(signal), staleTime: 0, gcTime: 0 });
}

/** One undeleted scraper by id; null when there is none. */
export async function getScraper(id: string, signal?: AbortSignal): Promise<Scraper | null> {
  const query = db.from(SCRAPERS_TABLE).select('id,name,description,spec,source,updated_at').eq('id', id).is('deleted_at', null).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<Scraper[], { merge: false }>();
  return data[0] ?? null;
}

export function useScraperQuery(id: string) {
  return useQuery({ queryKey: scraperKeys.detail(id), queryFn: ({ signal }) => getScraper(id, signal) });
}
