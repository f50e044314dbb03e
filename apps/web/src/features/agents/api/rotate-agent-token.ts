import { useMutation } from '@tanstack/react-query';
import { toastError } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { agentUrl } from './get-agent';
import type { CreatedAgent } from './types';

/** Replaces the agent's access token; the answer is the only time the new token is shown. */
export async function rotateAgentToken(id: string): Promise<CreatedAgent> {
  return requestJson<CreatedAgent>(`${agentUrl(id)}/token`, { method: 'POST', silent: true });
}

export function useRotateAgentToken() {
  return useMutation({ mutationFn: rotateAgentToken, onError: toastError });
}
