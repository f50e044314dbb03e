import { DEFAULT_PAGE_SIZE } from '@opsdeck/shared';
import type { AgentSortField } from './api/get-agents';

/** Spec 001 §9: the agents page offers 50, 100 and 200 rows, 50 by default. */
export const AGENT_PAGE_SIZES = [50, 100, 200] as const;

/** The sortable columns of the list, by column id, and the agents_summary column each sorts by. */
const SORT_FIELDS = {
  name: 'name',
  configs: 'config_count',
  checks: 'checks_count',
  scrapers: 'config_scrapper_count',
  playbook_runs: 'playbook_runs_count',
  status: 'last_seen',
  last_received: 'last_received',
  created_at: 'created_at',
  updated_at: 'updated_at',
} as const satisfies Record<string, AgentSortField>;

export type AgentColumn = keyof typeof SORT_FIELDS;

export interface AgentListParams {
  column: AgentColumn;
  desc: boolean;
  pageIndex: number;
  pageSize: number;
}

function isAgentColumn(value: string | null): value is AgentColumn {
  return value !== null && Object.hasOwn(SORT_FIELDS, value);
}

export function sortFieldOf(column: AgentColumn): AgentSortField {
  return SORT_FIELDS[column];
}

/**
 * The list state from the URL: sortBy (a column id, default name), sortOrder (asc or desc; default asc), page (from 1)
 * and pageSize (one of the page sizes). Values the list does not know fall back to the defaults.
 */
export function parseAgentListParams(search: URLSearchParams): AgentListParams {
  const sortBy = search.get('sortBy');
  const pageSize = Number(search.get('pageSize'));
  const page = Math.trunc(Number(search.get('page') ?? '1'));
  return {
    column: isAgentColumn(sortBy) ? sortBy : 'name',
    desc: search.get('sortOrder') === 'desc',
    pageIndex: Number.isFinite(page) && page > 1 ? page - 1 : 0,
    pageSize: (AGENT_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}
