import { useQuery } from '@tanstack/react-query';
import type { PlaybookParamsResponse, PlaybookTargetType, ResolvedPlaybookParameter } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export interface PlaybookParamsTarget {
  type: PlaybookTargetType;
  id: string;
}

/** The playbook's parameters with their defaults resolved for the target (spec 001 §7 "Get params"). */
export async function getPlaybookParams(playbookId: string, target: PlaybookParamsTarget | null, signal?: AbortSignal): Promise<ResolvedPlaybookParameter[]> {
  const body = target === null ? {} : { [`${target.type}_id`]: target.id };
  const response = await requestJson<PlaybookParamsResponse>(`/api/playbook/${encodeURIComponent(playbookId)}/params`, {
    method: 'POST',
    json: body,
    signal,
    silent: true,
  });
  return response.params;
}

export function usePlaybookParamsQuery(playbookId: string, target: PlaybookParamsTarget | null, enabled: boolean) {
  return useQuery({
    queryKey: playbookKeys.params(playbookId, target),
    queryFn: ({ signal }) => getPlaybookParams(playbookId, target, signal),
    enabled,
    // Defaults are templates of the target's current state: a reopened modal asks again.
    staleTime: 0,
  });
}
