import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CATALOG_STALE_TIME_MS, type RowWith, type TableRow, type ViewRow } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { configDetailKeys } from './keys';

/** The scraper or agent an item names, embedded by its foreign key. */
type NamedRef = Pick<TableRow<'agents'>, 'id' | 'name'>;

/**
 * A row of the `config_detail` view (spec 002 §3 config item with its content and the page's badge counts), with its
 * scraper and agent. `properties` holds the scraped facts, each usually {name, text, value, unit, links}; tags and
 * labels are string maps.
 */
export type ConfigDetail = RowWith<ViewRow<'config_detail'>, { tags: Record<string, string> | null; labels: Record<string, string> | null }> & {
  scraper: NamedRef | null;
  agent: NamedRef | null;
};

const CONFIG_DETAIL_SELECT = '*,scraper:scraper_id(id,name),agent:agent_id(id,name)';

const configIdSchema = z.guid();

/** Only a uuid can name a config item; anything else is not found without asking the server. */
export function isConfigId(id: string | undefined): id is string {
  return configIdSchema.safeParse(id).success;
}

/** The item with its content, or null when no item has this id. */
export async function getConfigDetail(id: string, signal?: AbortSignal): Promise<ConfigDetail | null> {
  const query = silentDb.from('config_detail').select(CONFIG_DETAIL_SELECT).eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ConfigDetail[], { merge: false }>();
  return data[0] ?? null;
}

export function useConfigDetailQuery(id: string | undefined) {
  const valid = isConfigId(id);
  return useQuery({
    queryKey: configDetailKeys.detail(valid ? id : ''),
    queryFn: ({ signal }) => (valid ? getConfigDetail(id, signal) : Promise.resolve(null)),
    enabled: valid,
    staleTime: CATALOG_STALE_TIME_MS,
  });
}
