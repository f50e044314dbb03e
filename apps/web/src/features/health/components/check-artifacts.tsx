import { ArtifactList } from '@/components/artifact-list/artifact-list';
import { QueryError } from '@/components/status/query-error';
import { useCheckArtifactsQuery } from '../api/get-check-artifacts';

/**
 * The Artifacts tab of an exec check that keeps files: its newest run's, each a download. An agent's check runs and
 * keeps its files on the agent, which pushes results only, so the tab says where they are instead of an empty list.
 */
export function CheckArtifacts({ checkId, agentName }: { checkId: string; agentName: string | null }) {
  const artifacts = useCheckArtifactsQuery(checkId, agentName === null);
  if (agentName !== null) return <p className="text-sm text-gray-600">This check runs on agent {agentName}, which keeps its files there: they are not sent to this server.</p>;
  if (artifacts.isError) return <QueryError error={artifacts.error} onRetry={() => void artifacts.refetch()} />;
  if (artifacts.data === undefined) return <div aria-busy="true" aria-label="Loading artifacts" className="h-10 animate-pulse rounded-md bg-gray-100" />;
  if (artifacts.data.length === 0) return <p className="text-sm text-gray-600">The newest run kept no file. The run's details in History say why a file was not kept.</p>;
  return <ArtifactList artifacts={artifacts.data} hrefOf={(id) => `/api/canary/artifacts/${id}`} />;
}
