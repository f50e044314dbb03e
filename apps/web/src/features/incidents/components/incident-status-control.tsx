import { useState } from 'react';
import { allowedStatusTargets, asksForDefinitionOfDone, headerStatusAction, type IncidentStatus } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dropdown } from '@/components/dropdown/dropdown';
import { capitalize } from './incident-field-options';
import { useUpdateIncidentStatus } from '../api/update-incident';
import { updateEvidence } from '../api/update-evidence';
import type { Evidence, IncidentDetail } from '../api/types';
import { StatusChangeDialog } from './status-change-dialog';

export interface IncidentStatusControlProps {
  incident: IncidentDetail;
  canWrite: boolean;
  /** 'dropdown' is the status picker; 'button' is the header's Close/Reopen. */
  variant: 'dropdown' | 'button';
}

export function allEvidence(incident: IncidentDetail): Evidence[] {
  return incident.hypotheses.flatMap((hypothesis) => hypothesis.evidences);
}

/** Changes the status within the transition table; mitigated and resolved first offer to extend the definition of done. */
export function IncidentStatusControl({ incident, canWrite, variant }: IncidentStatusControlProps) {
  const updateStatus = useUpdateIncidentStatus(incident.id);
  const [asking, setAsking] = useState<IncidentStatus | null>(null);
  const [isMarking, setIsMarking] = useState(false);
  const evidence = allEvidence(incident);
  const candidates = evidence.filter((item) => !item.definition_of_done);

  const requestStatus = (target: IncidentStatus) => {
    if (target === incident.status) return;
    if (asksForDefinitionOfDone(target)) setAsking(target);
    else updateStatus.mutate(target);
  };

  const handleAdd = async (ids: string[]) => {
    if (asking === null) return;
    const target = asking;
    setIsMarking(true);
    try {
      await updateEvidence(ids, { definition_of_done: true });
    } catch {
      // Marking the evidence is a courtesy here: the status change goes ahead regardless (spec 000 §4).
    } finally {
      setIsMarking(false);
    }
    setAsking(null);
    updateStatus.mutate(target);
  };

  const handleSkip = () => {
    if (asking === null) return;
    const target = asking;
    setAsking(null);
    updateStatus.mutate(target);
  };

  const action = headerStatusAction(incident.status);
  return (
    <>
      {variant === 'button' ? (
        canWrite && (
          <Button variant="secondary" onClick={() => requestStatus(action.target)} isPending={updateStatus.isPending}>
            {action.label}
          </Button>
        )
      ) : (
        <Dropdown
          label="Status"
          options={allowedStatusTargets(incident.status).map((status) => ({ value: status, label: capitalize(status) }))}
          value={incident.status}
          onChange={requestStatus}
          disabled={!canWrite || updateStatus.isPending}
        />
      )}
      {asking !== null && (
        <StatusChangeDialog
          open
          candidates={candidates}
          hasEvidence={evidence.length > 0}
          isPending={isMarking || updateStatus.isPending}
          onCancel={() => setAsking(null)}
          onSkip={handleSkip}
          onAdd={(ids) => void handleAdd(ids)}
        />
      )}
    </>
  );
}
