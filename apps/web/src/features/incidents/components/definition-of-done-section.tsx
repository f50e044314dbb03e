import { useState } from 'react';
import { Plus } from 'lucide-react';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import type { IncidentDetail } from '../api/types';
import { DefinitionOfDoneDialog } from './definition-of-done-dialog';
import { EvidenceItem } from './evidence-item';
import { allEvidence } from './incident-status-control';

export function DefinitionOfDoneSection({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const [isAdding, setIsAdding] = useState(false);
  const items = allEvidence(incident).filter((evidence) => evidence.definition_of_done);
  return (
    <div className="flex flex-col gap-2">
      {items.length === 0 ? (
        <p className="text-sm text-gray-500">{INCIDENT_MESSAGES.noEvidenceShort}</p>
      ) : (
        <ul aria-label="Definition of done" className="flex flex-col gap-1.5">
          {items.map((evidence) => (
            <EvidenceItem key={evidence.id} evidence={evidence} canWrite={canWrite} />
          ))}
        </ul>
      )}
      {canWrite && (
        <Button variant="secondary" className="self-start" onClick={() => setIsAdding(true)}>
          <Plus aria-hidden="true" className="size-4" />
          Add definition of done
        </Button>
      )}
      {isAdding && <DefinitionOfDoneDialog open onOpenChange={setIsAdding} incident={incident} />}
    </div>
  );
}
