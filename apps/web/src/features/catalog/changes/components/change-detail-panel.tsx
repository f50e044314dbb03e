import { Link } from 'react-router';
import { formatDate, type CatalogChange } from '@opsdeck/shared';
import { Dialog } from '@/components/dialog/dialog';
import { DiffView } from '@/components/diff-view/diff-view';
import { CountBadge } from '@/components/count-badge/count-badge';
import { QueryError } from '@/components/status/query-error';
import { SeverityBadge } from '@/components/status/severity-badge';
import { DetailSection, FactList, type Fact } from '../../components/detail-facts';
import { useChangeContentQuery } from '../api/get-change-detail';

export interface ChangeDetailPanelProps {
  change: CatalogChange;
  createdByName: string | null;
  onClose: () => void;
}

/** Patches are stored as text; JSON ones are indented like details, anything else is shown as written. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
}

function JsonBlock({ value, emptyText }: { value: unknown; emptyText: string }) {
  if (isEmpty(value)) return <p className="text-sm text-gray-500">{emptyText}</p>;
  return <pre className="max-h-96 overflow-auto rounded-md border border-gray-200 bg-gray-50 p-2 font-mono text-xs text-gray-800">{prettyJson(value)}</pre>;
}

/** A change of the list with its diff, details and patches, read when it opens; Escape closes it. */
export function ChangeDetailPanel({ change, createdByName, onClose }: ChangeDetailPanelProps) {
  const content = useChangeContentQuery(change.id);
  const facts: Fact[] = [
    [
      'Config',
      <Link key="config" to={`/catalog/${change.config_id}`} className="text-blue-700 hover:underline">
        {change.name}
      </Link>,
    ],
    ['Type', change.type],
    ['Severity', change.severity ? <SeverityBadge severity={change.severity} /> : '—'],
    ['Source', change.source ?? '—'],
    ['Created by', createdByName ?? change.external_created_by ?? '—'],
    ['Count', <CountBadge key="count" count={change.count} label="sightings" />],
    ['First observed', formatDate(change.first_observed)],
    ['Last observed', formatDate(change.created_at)],
  ];

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="large"
      title={`${change.change_type}: ${change.name}`}
      description={change.summary ?? undefined}
    >
      <div className="flex flex-col gap-4">
        <FactList facts={facts} />
        {content.isPending ? (
          <p role="status" className="text-sm text-gray-500">
            Loading the change…
          </p>
        ) : content.isError ? (
          <QueryError subject="The change" error={content.error} onRetry={() => void content.refetch()} />
        ) : content.data === null ? (
          <p className="text-sm text-gray-500">No details found</p>
        ) : (
          <>
            <DetailSection title="Diff">
              <DiffView diff={content.data.diff ?? ''} label="Change diff" emptyText="This change has no diff." />
            </DetailSection>
            <DetailSection title="Details">
              <JsonBlock value={content.data.details} emptyText="No details recorded." />
            </DetailSection>
            <DetailSection title="Patches">
              <JsonBlock value={content.data.patches} emptyText="No patches recorded." />
            </DetailSection>
          </>
        )}
      </div>
    </Dialog>
  );
}
