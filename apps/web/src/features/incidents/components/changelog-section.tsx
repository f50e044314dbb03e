import { formatDate, formatRelativeTime, INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { QueryError } from '@/components/status/query-error';
import { useIncidentHistoryQuery } from '../api/get-incident-history';
import type { IncidentHistoryEntry } from '../api/types';

/** A sentence per event; the two names of a status change read alike. */
export function describeHistoryEntry(entry: IncidentHistoryEntry): string {
  const responderName = entry.responder?.person?.name ?? entry.responder?.team?.name ?? 'a responder';
  switch (entry.type) {
    case 'incident.created':
      return `created the incident${entry.description ? `: ${entry.description}` : ''}`;
    case 'incident.status_updated':
    case 'incident_status.updated':
      return entry.description ?? 'changed the status';
    case 'responder.created':
      return `added ${responderName} as responder`;
    case 'responder.commented':
      return `commented: ${entry.description ?? ''}`;
    case 'evidence.created':
      return `added evidence${entry.description ? `: ${entry.description}` : ''}`;
    case 'evidence.done_definition_added':
      return `added to the definition of done${entry.description ? `: ${entry.description}` : ''}`;
    case 'hypothesis.created':
      return `created hypothesis ${entry.description ?? entry.hypothesis?.title ?? ''}`.trim();
    case 'hypothesis.status_updated':
      return `${entry.hypothesis?.title ?? 'hypothesis'}: ${entry.description ?? 'status changed'}`;
    default:
      return entry.description ?? entry.type;
  }
}

export function ChangelogSection({ incidentId }: { incidentId: string }) {
  const history = useIncidentHistoryQuery(incidentId);
  if (history.isPending) return <p className="text-sm text-gray-500">Loading changelog…</p>;
  if (history.isError) return <QueryError subject="The changelog" error={history.error} onRetry={() => void history.refetch()} />;
  if (history.data.length === 0) return <p className="text-sm text-gray-500">{INCIDENT_MESSAGES.noChangelog}</p>;
  return (
    <ol aria-label="Changelog" className="flex flex-col gap-2">
      {history.data.map((entry) => (
        <li key={entry.id} className="flex gap-2 text-sm">
          <Avatar name={entry.creator?.name ?? 'System'} src={entry.creator?.avatar} size="sm" />
          <div className="min-w-0">
            <p className="break-words text-gray-800">
              <span className="font-medium">{entry.creator?.name ?? 'System'}</span> {describeHistoryEntry(entry)}
            </p>
            <time dateTime={entry.created_at} title={formatDate(entry.created_at)} className="text-xs text-gray-500">
              {formatRelativeTime(entry.created_at)} ago
            </time>
          </div>
        </li>
      ))}
    </ol>
  );
}
