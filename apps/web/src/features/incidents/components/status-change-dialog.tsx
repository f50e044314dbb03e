import { useState } from 'react';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { toastError } from '@/components/toast/toast';
import type { Evidence } from '../api/types';
import { evidenceTitle, evidenceTypeLabel } from './evidence-label';

export interface StatusChangeDialogProps {
  open: boolean;
  /** The incident's evidence that is not yet part of the definition of done. */
  candidates: readonly Evidence[];
  hasEvidence: boolean;
  isPending: boolean;
  onCancel: () => void;
  onSkip: () => void;
  onAdd: (evidenceIds: string[]) => void;
}

/** 'Add contributing factors to definition of done', offered before an incident becomes mitigated or resolved. */
export function StatusChangeDialog({ open, candidates, hasEvidence, isPending, onCancel, onSkip, onAdd }: StatusChangeDialogProps) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) => {
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };

  const handleAdd = () => {
    if (selected.size === 0) {
      toastError(INCIDENT_MESSAGES.statusNeedsEvidence);
      return;
    }
    onAdd([...selected]);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title={INCIDENT_MESSAGES.definitionOfDoneDialogTitle}
      size="small"
      expandable={false}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          <Button variant="secondary" onClick={onSkip} disabled={isPending}>
            Skip
          </Button>
          <Button onClick={handleAdd} isPending={isPending}>
            Add
          </Button>
        </>
      }
    >
      {candidates.length === 0 ? (
        <p className="text-sm text-gray-600">{hasEvidence ? INCIDENT_MESSAGES.noEvidenceOutsideDefinitionOfDone : INCIDENT_MESSAGES.noEvidence}</p>
      ) : (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-2 text-sm text-gray-700">Which evidence must hold for the incident to be done?</legend>
          {candidates.map((evidence) => (
            <label key={evidence.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-gray-50">
              <input type="checkbox" checked={selected.has(evidence.id)} onChange={() => toggle(evidence.id)} className="size-4" />
              <span className="rounded bg-gray-100 px-1 text-xs text-gray-600">{evidenceTypeLabel(evidence.type)}</span>
              <span className="truncate">{evidenceTitle(evidence)}</span>
            </label>
          ))}
        </fieldset>
      )}
    </Dialog>
  );
}
