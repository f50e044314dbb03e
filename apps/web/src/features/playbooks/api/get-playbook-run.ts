import { useQuery } from '@tanstack/react-query';
import { PLAYBOOK_RUN_POLL_MS, isActivePlaybookRun, type PlaybookRun, type PlaybookRunAction } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export function playbookRunUrl(id: string): string {
  return `/api/playbook/run/${encodeURIComponent(id)}`;
}

/** GET /api/playbook/run/{id}: the run with its actions in the order they ran. */
export async function getPlaybookRun(id: string, signal?: AbortSignal): Promise<PlaybookRun> {
  return requestJson<PlaybookRun>(playbookRunUrl(id), { silent: true, signal });
}

/** GET /api/playbook/run/action/{id}: one action with its result as stored now. */
export async function getPlaybookRunAction(id: string, signal?: AbortSignal): Promise<PlaybookRunAction> {
  return requestJson<PlaybookRunAction>(`/api/playbook/run/action/${encodeURIComponent(id)}`, { silent: true, signal });
}

/** How often the run detail asks again: every 5 s while the run can still change (spec 001 §4, §9), never once final. */
export function playbookRunRefetchInterval(run: PlaybookRun | undefined): number | false {
  return run !== undefined && isActivePlaybookRun(run.status) ? PLAYBOOK_RUN_POLL_MS : false;
}

export function usePlaybookRunQuery(id: string) {
  return useQuery({
    queryKey: playbookKeys.run(id),
    queryFn: ({ signal }) => getPlaybookRun(id, signal),
    refetchInterval: (query) => playbookRunRefetchInterval(query.state.data),
  });
}
