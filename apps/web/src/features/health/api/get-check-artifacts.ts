import { useQuery } from '@tanstack/react-query';
import type { ArtifactInfo } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { healthKeys } from './keys';

/** The files an exec check's newest run kept (its spec's `artifacts`). */
export function useCheckArtifactsQuery(checkId: string, enabled: boolean) {
  return useQuery({
    queryKey: healthKeys.artifacts(checkId),
    queryFn: ({ signal }) => requestJson<ArtifactInfo[]>(`/api/canary/checks/${encodeURIComponent(checkId)}/artifacts`, { signal }),
    enabled,
  });
}
