import type { PlaybookTargetType } from '@opsdeck/shared';

/** Every playbook query key starts with `all`, so one invalidation after a save, a run or a cancel refreshes them all. */
export const playbookKeys = {
  all: ['playbooks'] as const,
  list: () => [...playbookKeys.all, 'list'] as const,
  detail: (id: string) => [...playbookKeys.all, 'detail', id] as const,
  runnable: (type: PlaybookTargetType, id: string) => [...playbookKeys.all, 'runnable', type, id] as const,
  params: (playbookId: string, target: { type: PlaybookTargetType; id: string } | null) => [...playbookKeys.all, 'params', playbookId, target] as const,
  runs: (query: Record<string, string | number | null>) => [...playbookKeys.all, 'runs', query] as const,
  run: (id: string) => [...playbookKeys.all, 'run', id] as const,
  preflight: (playbookId: string) => [...playbookKeys.all, 'preflight', playbookId] as const,
};
