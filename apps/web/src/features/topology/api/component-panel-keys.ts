import { topologyKeys } from './keys';

/**
 * The side panel's and link dialogs' query keys. They sit under `topologyKeys.all`, so one invalidation after a link
 * or unlink refreshes the cards (teams, summaries) together with the open section.
 */
export const componentPanelKeys = {
  all: [...topologyKeys.all, 'component'] as const,
  component: (id: string) => [...componentPanelKeys.all, id] as const,
  configs: (id: string) => [...componentPanelKeys.component(id), 'configs'] as const,
  incidents: (id: string) => [...componentPanelKeys.component(id), 'incidents'] as const,
  changes: (id: string) => [...componentPanelKeys.component(id), 'changes'] as const,
  checks: (id: string) => [...componentPanelKeys.component(id), 'checks'] as const,
  playbookRuns: (id: string) => [...componentPanelKeys.component(id), 'playbook-runs'] as const,
  teams: (id: string) => [...componentPanelKeys.component(id), 'teams'] as const,
  insights: (id: string) => [...componentPanelKeys.component(id), 'insights'] as const,
  configSearch: (search: string) => [...topologyKeys.all, 'config-search', search] as const,
  teamOptions: () => [...topologyKeys.all, 'team-options'] as const,
};
