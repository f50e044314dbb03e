import { useState } from 'react';
import { Link } from 'react-router';
import { CheckCircle2, Circle, ListChecks, Trash2 } from 'lucide-react';
import { INCIDENT_MESSAGES, formatRelativeTime } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { HealthDot } from '@/components/status/health-dot';
import { useDeleteEvidence } from '../api/delete-evidence';
import { useUpdateEvidence, type EvidenceChanges } from '../api/update-evidence';
import type { Evidence } from '../api/types';
import { evidenceHref, evidenceStatus, evidenceTitle, evidenceTypeLabel } from './evidence-label';
import { EvidenceLines } from './evidence-lines';
import { AlertEvidence } from './alert-evidence';

export interface EvidenceItemProps {
  evidence: Evidence;
  canWrite: boolean;
}

type Pending = { kind: 'change'; title: string; message: string; confirmLabel: string; changes: EvidenceChanges } | { kind: 'delete' } | null;

/** One evidence with its linked item and, for writers, the definition-of-done and delete actions (each confirmed). */
export function EvidenceItem({ evidence, canWrite }: EvidenceItemProps) {
  const updateEvidence = useUpdateEvidence();
  const deleteEvidence = useDeleteEvidence();
  const [pending, setPending] = useState<Pending>(null);
  const href = evidenceHref(evidence);
  const status = evidenceStatus(evidence);
  const title = evidenceTitle(evidence);

  const askDefinitionOfDone = () =>
    setPending(
      evidence.definition_of_done
        ? {
            kind: 'change',
            title: 'Remove from definition of done',
            message: `Remove '${title}' from the definition of done?`,
            confirmLabel: 'Remove',
            changes: { definition_of_done: false },
          }
        : {
            kind: 'change',
            title: 'Add to definition of done',
            message: `Make '${title}' part of the definition of done?`,
            confirmLabel: 'Add',
            changes: { definition_of_done: true },
          },
    );

  const askDone = () =>
    setPending({
      kind: 'change',
      title: evidence.done ? INCIDENT_MESSAGES.markNotResolved : INCIDENT_MESSAGES.markResolved,
      message: evidence.done ? `Mark '${title}' as not resolved?` : `Mark '${title}' as resolved?`,
      confirmLabel: 'Confirm',
      changes: { done: !evidence.done },
    });

  const handleConfirm = () => {
    if (pending === null) return;
    const close = { onSettled: () => setPending(null) };
    if (pending.kind === 'delete') deleteEvidence.mutate(evidence.id, close);
    else updateEvidence.mutate({ ids: [evidence.id], changes: pending.changes }, close);
  };

  return (
    <li className="rounded-md border border-gray-200 bg-white p-2 text-sm" data-testid="evidence-item">
      {/* The title wraps rather than truncates: in the narrow side panel the actions would leave it a letter or two. */}
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {status !== null && <HealthDot status={status} />}
        <span className="rounded bg-gray-100 px-1 text-xs text-gray-600">{evidenceTypeLabel(evidence.type)}</span>
        {href ? (
          <Link to={href} className="min-w-40 flex-1 font-medium break-words text-blue-700 hover:underline">
            {title}
          </Link>
        ) : (
          <span className="min-w-40 flex-1 font-medium break-words text-gray-900">
            {title}
          </span>
        )}
        {evidence.definition_of_done && (
          <span className="inline-flex items-center gap-1 rounded bg-blue-50 px-1 text-xs text-blue-700">
            {evidence.done ? <CheckCircle2 aria-hidden="true" className="size-3" /> : <Circle aria-hidden="true" className="size-3" />}
            {evidence.done ? 'Done' : 'Definition of done'}
          </span>
        )}
        <span className="ml-auto shrink-0 text-xs text-gray-500">{formatRelativeTime(evidence.created_at)}</span>
        {canWrite && (
          <span className="flex shrink-0 items-center">
            <Button
              variant="ghost"
              className="px-1.5"
              aria-label={evidence.definition_of_done ? 'Remove from definition of done' : 'Add to definition of done'}
              title={evidence.definition_of_done ? 'Remove from definition of done' : 'Add to definition of done'}
              onClick={askDefinitionOfDone}
            >
              <ListChecks aria-hidden="true" className="size-4" />
            </Button>
            {evidence.definition_of_done && (
              <Button
                variant="ghost"
                className="px-1.5"
                aria-label={evidence.done ? INCIDENT_MESSAGES.markNotResolved : INCIDENT_MESSAGES.markResolved}
                title={evidence.done ? INCIDENT_MESSAGES.markNotResolved : INCIDENT_MESSAGES.markResolved}
                onClick={askDone}
              >
                <CheckCircle2 aria-hidden="true" className="size-4" />
              </Button>
            )}
            <Button variant="ghost" className="px-1.5" aria-label="Delete evidence" title="Delete evidence" onClick={() => setPending({ kind: 'delete' })}>
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </span>
        )}
      </div>
      {evidence.description && evidence.description !== title && <p className="mt-1 text-gray-700">{evidence.description}</p>}
      {evidence.type === 'comment' && evidence.evidence?.comment && evidence.evidence.comment !== title && (
        <p className="mt-1 text-gray-700">{evidence.evidence.comment}</p>
      )}
      {evidence.type === 'alert' && evidence.alert && <AlertEvidence alert={evidence.alert} />}
      {evidence.script && <code className="mt-1 block text-xs text-gray-600">{evidence.script}</code>}
      {(evidence.type === 'log' || evidence.type === 'config') && (
        <EvidenceLines lines={evidence.evidence?.lines ?? []} selected={evidence.evidence?.selected_lines ?? []} />
      )}
      {evidence.unreadable !== undefined && (
        <p className="mt-1 rounded bg-red-50 px-2 py-1 text-xs text-red-700">This evidence could not be shown: {evidence.unreadable}</p>
      )}
      {pending !== null && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={pending.kind === 'delete' ? 'Delete evidence' : pending.title}
          message={pending.kind === 'delete' ? `Delete the evidence '${title}'?` : pending.message}
          confirmLabel={pending.kind === 'delete' ? 'Delete' : pending.confirmLabel}
          variant={pending.kind === 'delete' ? 'danger' : 'default'}
          isPending={updateEvidence.isPending || deleteEvidence.isPending}
          onConfirm={handleConfirm}
        />
      )}
    </li>
  );
}
