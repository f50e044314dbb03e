import { useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export interface PreflightNeed {
  action: string;
  met: boolean;
  message: string;
}

/** GET /api/playbook/{id}/preflight: what the playbook's actions need from the server's host, and whether it has it. */
export async function getPlaybookPreflight(playbookId: string, signal?: AbortSignal): Promise<PreflightNeed[]> {
  const answer = await requestJson<{ needs: PreflightNeed[] }>(`/api/playbook/${encodeURIComponent(playbookId)}/preflight`, { signal, silent: true });
  return answer.needs;
}

export function usePlaybookPreflightQuery(playbookId: string) {
  return useQuery({
    queryKey: playbookKeys.preflight(playbookId),
    queryFn: ({ signal }) => getPlaybookPreflight(playbookId, signal),
    enabled: playbookId !== '',
    // The host can change between two openings of the dialog (a tool installed, a database started).
    staleTime: 0,
  });
}
