export type IncidentSortField = 'created_at' | 'type' | 'severity' | 'status' | 'title';

export interface IncidentListFilters {
  type: string;
  severity: string;
  status: string;
  owner: string;
  component: string;
  search: string;
}

export interface IncidentListParams extends IncidentListFilters {
  pageIndex: number;
  pageSize: number;
  sortBy: IncidentSortField;
  sortDesc: boolean;
}

/**
 * Every incident query key starts with `all`, so invalidating it after a write refreshes any incident list or detail
 * that is open, wherever the write was made.
 */
export const incidentsKeys = {
  all: ['incidents'] as const,
  lists: () => [...incidentsKeys.all, 'list'] as const,
  list: (params: IncidentListParams) => [...incidentsKeys.lists(), params] as const,
  details: () => [...incidentsKeys.all, 'detail'] as const,
  detail: (id: string) => [...incidentsKeys.details(), id] as const,
  history: (id: string) => [...incidentsKeys.all, 'history', id] as const,
  responders: (id: string) => [...incidentsKeys.all, 'responders', id] as const,
  people: () => ['people', 'options'] as const,
  teams: () => ['teams', 'options'] as const,
  components: () => ['components', 'options'] as const,
  resourceSearch: (kind: string, search: string) => ['resources', 'search', kind, search] as const,
};
