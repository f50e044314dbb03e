import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import { authRequest } from './auth-request';
import { authKeys } from './keys';

export async function getFlowError(id: string): Promise<unknown> {
  const { status, body } = await authRequest(`/api/auth/self-service/errors?id=${encodeURIComponent(id)}`);
  if (status === 200) return body;
  throw new ApiError(status, body);
}

export function useFlowError(id: string) {
  return useQuery({ queryKey: authKeys.flowError(id), queryFn: () => getFlowError(id), retry: false, staleTime: Infinity });
}
