import { useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import { DEBOUNCE_MS, DETAILS_FALLBACK_SEVERITY, formatDate, type IncidentSeverity, type IncidentType } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { Dropdown } from '@/components/dropdown/dropdown';
import { incidentSeverityOptions, incidentTypeOptions } from './incident-field-options';
import { QueryError } from '@/components/status/query-error';
import { useRespondersQuery } from '../api/get-responders';
import { useUpdateIncident, type IncidentChanges } from '../api/update-incident';
import type { IncidentDetail, PersonRef } from '../api/types';
import { AddResponderDialog } from './add-responder-dialog';
import { IncidentStatusControl } from './incident-status-control';
import { ResponderCard } from './responder-card';
import { useDebouncedSave } from './use-debounced-save';

export interface DetailsSectionProps {
  incident: IncidentDetail;
  canWrite: boolean;
  canWriteResponders: boolean;
}

function Person({ person }: { person: PersonRef | null }) {
  if (!person) return <span className="text-gray-500">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Avatar name={person.name} src={person.avatar} size="sm" />
      {person.name}
    </span>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] items-center gap-2 text-sm">
      <dt className="text-gray-500">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** Type, severity and status (edits sent 500 ms after a change), the people involved and the responders. */
export function DetailsSection({ incident, canWrite, canWriteResponders }: DetailsSectionProps) {
  const updateIncident = useUpdateIncident(incident.id);
  const responders = useRespondersQuery(incident.id);
  const [type, setType] = useState<IncidentType>(incident.type);
  const [severity, setSeverity] = useState<IncidentSeverity>(incident.severity ?? DETAILS_FALLBACK_SEVERITY);
  const [isAddingResponder, setIsAddingResponder] = useState(false);
  const save = useDebouncedSave((changes: IncidentChanges) => updateIncident.mutate(changes), DEBOUNCE_MS.fieldEdit);

  return (
    <div className="flex flex-col gap-3">
      <dl className="flex flex-col gap-2">
        <Row label="Type">
          <Dropdown
            label="Type"
            options={incidentTypeOptions}
            value={type}
            disabled={!canWrite}
            onChange={(next) => {
              setType(next);
              save.schedule({ type: next });
            }}
          />
        </Row>
        <Row label="Severity">
          <Dropdown
            label="Severity"
            options={incidentSeverityOptions}
            value={severity}
            disabled={!canWrite}
            onChange={(next) => {
              setSeverity(next);
              save.schedule({ severity: next });
            }}
          />
        </Row>
        <Row label="Status">
          <IncidentStatusControl incident={incident} canWrite={canWrite} variant="dropdown" />
        </Row>
        <Row label="Created by">
          <Person person={incident.creator} />
        </Row>
        <Row label="Commander">
          <Person person={incident.commander} />
        </Row>
        <Row label="Created at">{formatDate(incident.created_at)}</Row>
      </dl>
      <section aria-labelledby="responders-heading" className="flex flex-col gap-2">
        <div className="flex items-center">
          <h3 id="responders-heading" className="text-sm font-semibold text-gray-900">
            Responders
          </h3>
          {canWriteResponders && (
            <Button variant="ghost" className="ml-auto px-1.5 text-xs" onClick={() => setIsAddingResponder(true)}>
              <Plus aria-hidden="true" className="size-3.5" />
              Add responder
            </Button>
          )}
        </div>
        {responders.isPending && <p className="text-sm text-gray-500">Loading responders…</p>}
        {responders.isError && <QueryError subject="Responders" error={responders.error} onRetry={() => void responders.refetch()} />}
        {responders.data?.length === 0 && <p className="text-sm text-gray-500">No responders yet</p>}
        {responders.data && responders.data.length > 0 && (
          <ul aria-label="Responders" className="flex flex-col gap-1.5">
            {responders.data.map((responder) => (
              <ResponderCard key={responder.id} responder={responder} canWrite={canWriteResponders} />
            ))}
          </ul>
        )}
      </section>
      {isAddingResponder && <AddResponderDialog open onOpenChange={setIsAddingResponder} incidentId={incident.id} />}
    </div>
  );
}
