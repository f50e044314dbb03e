import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { resolveTimeRange, type TableRow, type TimeRange } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { containsPattern } from '@/lib/api/text-search';
import { isPersonId, type AuditLogParams } from '../audit-params';
import { auditKeys } from './keys';

/** A row of audit_log (migration 0105) as the page shows it: every column but the request id. */
export type AuditEntry = Omit<TableRow<'audit_log'>, 'request_id'>;

export interface AuditLogPage {
  rows: AuditEntry[];
  /** Every row matching the filters (estimated beyond the data API's row cap), not only this page. */
  totalCount: number;
}

export const AUDIT_LOG_SELECT = 'id,at,actor_id,actor_name,via,api_token_id,method,route,resource,resource_id,resource_ids,action,changed_fields,changes,status';

/** The data API's answer to an offset past the last row (416). */
const RANGE_NOT_SATISFIABLE = 'PGRST103';

function isRangeNotSatisfiable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === RANGE_NOT_SATISFIABLE;
}

function rangeKey(range: TimeRange): string {
  return range.type === 'relative' ? range.range : `${range.type}|${range.from}|${range.to}`;
}

/**
 * The filtered rows. Every filter has an index behind it (migration 0105): the time range, the actor's id, the
 * resource and the action each lead one with `at`; a name typed for the actor narrows rows the time range found.
 */
function matching(params: AuditLogParams) {
  const { from, to } = resolveTimeRange(params.timeRange);
  let request = silentDb.from('audit_log').select(AUDIT_LOG_SELECT, { count: 'estimated' }).gte('at', from.toISOString());
  // A relative range has no upper bound, so writes made after the page opened still show on refresh.
  if (params.timeRange.type !== 'relative') request = request.lte('at', to.toISOString());
  if (params.actor !== '') request = isPersonId(params.actor) ? request.eq('actor_id', params.actor) : request.ilike('actor_name', containsPattern(params.actor));
  if (params.resource !== '') request = request.eq('resource', params.resource);
  if (params.action !== null) request = request.eq('action', params.action);
  return request;
}

/** One page of the audit log, newest first; a page past the end answers no rows with the real count. */
export async function getAuditLog(params: AuditLogParams, signal?: AbortSignal): Promise<AuditLogPage> {
  const start = params.pageIndex * params.pageSize;
  const request = matching(params).order('at', { ascending: false }).order('id', { ascending: false }).range(start, start + params.pageSize - 1);
  try {
    const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError();
    return { rows: data, totalCount: count ?? data.length };
  } catch (error) {
    if (start === 0 || !isRangeNotSatisfiable(error)) throw error;
    const first = matching(params).limit(1);
    const { count } = await (signal ? first.abortSignal(signal) : first).throwOnError();
    return { rows: [], totalCount: count ?? 0 };
  }
}

export function useAuditLogQuery(params: AuditLogParams) {
  return useQuery({
    queryKey: auditKeys.list({ ...params, timeRange: rangeKey(params.timeRange) }),
    queryFn: ({ signal }) => getAuditLog(params, signal),
    placeholderData: keepPreviousData,
  });
}
