import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RowWith, ViewRow } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import type { ResourceOrigin } from '@/lib/resource-origin/resource-origin';
import type { IntegrationListParams } from '../integration-list-params';
import { integrationKeys } from './keys';

/**
 * A row of integrations_with_status (spec 001 §3 'Integration list row'). The view is a UNION ALL of three status
 * views, through which the generator proves no column set; the id, name, type and times come from NOT NULL columns of
 * each part, and `agent` is the joined agent. `integration_type` (topologies, scrapers or logging_backends) stays a
 * string, since the page must say so when it is none of them.
 */
export type IntegrationRow = RowWith<
  Pick<
    ViewRow<'integrations_with_status'>,
    | 'id' | 'name' | 'namespace' | 'source' | 'agent_id' | 'agent' | 'integration_type' | 'job_status' | 'job_details' | 'job_name'
    | 'job_time_start' | 'last_runtime' | 'created_by' | 'created_at' | 'updated_at'
  >,
  Pick<ResourceOrigin, 'agent' | 'created_at' | 'updated_at'> & { id: string; name: string; integration_type: string }
>;

export interface IntegrationsPage {
  rows: IntegrationRow[];
  totalCount: number;
}

export const INTEGRATION_LIST_SELECT =
  'id,name,namespace,source,agent_id,agent,integration_type,job_status,job_details,job_name,job_time_start,last_runtime,created_by,created_at,updated_at';

/**
 * Spec 001 §7: integrations_with_status with limit and offset and the total from the count header. Newest first; the
 * id breaks ties so that no row shows on two pages.
 */
export async function getIntegrations({ pageIndex, pageSize }: IntegrationListParams, signal?: AbortSignal): Promise<IntegrationsPage> {
  const start = pageIndex * pageSize;
  const request = silentDb
    .from('integrations_with_status')
    .select(INTEGRATION_LIST_SELECT, { count: 'exact' })
    .is('deleted_at', null)
    .order('created_at', { ascending: false })
    .order('id', { ascending: true })
    .range(start, start + pageSize - 1);
  const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError().overrideTypes<IntegrationRow[], { merge: false }>();
  return { rows: data, totalCount: count ?? data.length };
}

export function useIntegrationsQuery(params: IntegrationListParams) {
  return useQuery({
    queryKey: integrationKeys.list(params.pageIndex, params.pageSize),
    queryFn: ({ signal }) => getIntegrations(params, signal),
    placeholderData: keepPreviousData,
    // As the generic lists (spec 002 §7): a list opened after an edit elsewhere is always fetched again.
    staleTime: 0,
    gcTime: 0,
  });
}
