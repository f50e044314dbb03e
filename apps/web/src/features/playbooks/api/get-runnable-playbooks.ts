import { useQuery } from '@tanstack/react-query';
import type { PlaybookTargetType, RunnablePlaybook } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

/** The live playbooks offered for a check, component or config (their selectors match it). */
export async function getRunnablePlaybooks(type: PlaybookTargetType, id: string, signal?: AbortSignal): Promise<RunnablePlaybook[]> {
  const query = new URLSearchParams({ [`${type}_id`]: id });
  return requestJson<RunnablePlaybook[]>(`/api/playbook/list?${query.toString()}`, { signal, silent: true });
}

export function useRunnablePlaybooksQuery(type: PlaybookTargetType, id: string, enabled: boolean) {
  return useQuery({ queryKey: playbookKeys.runnable(type, id), queryFn: ({ signal }) => getRunnablePlaybooks(type, id, signal), enabled });
}
