import { useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { agentsKeys } from './keys';
import type { AgentDetail } from './types';

export const AGENTS_URL = '/api/agents';

export function agentUrl(id: string): string {
  return `${AGENTS_URL}/${encodeURIComponent(id)}`;
}

/** Silent: the editor shows a failed load in place, with a retry, rather than as a toast. */
export async function getAgent(id: string, signal?: AbortSignal): Promise<AgentDetail> {
  return requestJson<AgentDetail>(agentUrl(id), { signal, silent: true });
}

export function useAgentQuery(id: string) {
  return useQuery({ queryKey: agentsKeys.detail(id), queryFn: ({ signal }) => getAgent(id, signal) });
}
