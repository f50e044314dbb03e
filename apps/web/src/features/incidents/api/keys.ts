import { incidentQueryRoot } from '@/components/link-to-incident/incident-keys';
import type { IncidentListParams } from './get-incidents';

export const incidentsKeys = {
  all: incidentQueryRoot,
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
