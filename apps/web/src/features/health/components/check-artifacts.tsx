import { ArtifactList } from '@/components/artifact-list/artifact-list';
import { QueryError } from '@/components/status/query-error';
import { useCheckArtifactsQuery } from '../api/get-check-artifacts';

/** The Artifacts tab of an exec check that keeps files: its newest run's, each a download. */
export function CheckArtifacts({ checkId }: { checkId: string }) {
  const artifacts = useCheckArtifactsQuery(checkId, true);
  if (artifacts.isError) return <QueryError error={artifacts.error} onRetry={() => void artifacts.refetch()} />;
  if (artifacts.data === undefined) return <div aria-busy="true" aria-label="Loading artifacts" className="h-10 animate-pulse rounded-md bg-gray-100" />;
  if (artifacts.data.length === 0) return <p className="text-sm text-gray-600">The newest run kept no file. The run's details in History say why a file was not kept.</p>;
  return <ArtifactList artifacts={artifacts.data} hrefOf={(id) => `/api/canary/artifacts/${id}`} />;
}
