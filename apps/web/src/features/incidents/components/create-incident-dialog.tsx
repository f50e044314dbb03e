import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  DEFAULT_INCIDENT_SEVERITY,
  DEFAULT_INCIDENT_STATUS,
  DEFAULT_INCIDENT_TYPE,
  INCIDENT_MESSAGES,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  TEXT_LIMITS,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { REQUIRED_MESSAGE } from '@/components/forms/messages';
import { SelectField } from '@/components/forms/select-field';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { errorMessage } from '@/components/toast/toast';
import { createIncident, sourceEvidence, type IncidentSource } from '../api/create-incident';
import { incidentsKeys } from '../api/keys';
import { incidentSeverityOptions, incidentStatusOptions, incidentTypeOptions } from './incident-field-options';

const required = { error: REQUIRED_MESSAGE };

const schema = z.object({
  title: z.string().trim().min(1, REQUIRED_MESSAGE).max(TEXT_LIMITS.short, `At most ${TEXT_LIMITS.short} characters`),
  description: z.string().max(TEXT_LIMITS.long, `At most ${TEXT_LIMITS.long.toLocaleString('en-US')} characters`),
  type: z.enum(INCIDENT_TYPES, required),
  severity: z.enum(INCIDENT_SEVERITIES, required),
  status: z.enum(INCIDENT_STATUSES, required),
});
type CreateIncidentValues = z.infer<typeof schema>;

export interface CreateIncidentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The configuration item or component the incident is about; its evidence is attached to the new incident. */
  source?: IncidentSource;
  defaultTitle?: string;
}

/** 'Create New Incident': creates the incident and its root hypothesis, then opens the incident. */
export function CreateIncidentDialog({ open, onOpenChange, source, defaultTitle = '' }: CreateIncidentDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { control, handleSubmit, reset } = useForm<CreateIncidentValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: defaultTitle,
      description: '',
      type: DEFAULT_INCIDENT_TYPE,
      severity: DEFAULT_INCIDENT_SEVERITY,
      status: DEFAULT_INCIDENT_STATUS,
    },
  });
  const create = useMutation({
    mutationFn: createIncident,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: incidentsKeys.all });
      reset();
      onOpenChange(false);
      void navigate(`/incidents/${created.id}`);
    },
  });

  const handleValid = (values: CreateIncidentValues) => {
    create.mutate({ ...values, evidence: source === undefined ? undefined : sourceEvidence(source) });
  };

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      reset();
      create.reset();
    }
    onOpenChange(next);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={handleOpenChange}
      title={INCIDENT_MESSAGES.createTitle}
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={() => handleOpenChange(false)} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="create-incident-form" isPending={create.isPending}>
            Create
          </Button>
        </>
      }
    >
      <form id="create-incident-form" noValidate onSubmit={handleSubmit(handleValid)} className="flex flex-col gap-3">
        <TextField control={control} name="title" label="Title" required autoFocus />
        <TextAreaField control={control} name="description" label="Description" />
        <SelectField control={control} name="type" label="Type" options={incidentTypeOptions} required />
        <SelectField control={control} name="severity" label="Severity" options={incidentSeverityOptions} required />
        <SelectField control={control} name="status" label="Status" options={incidentStatusOptions} required />
        {create.isError && (
          <p role="alert" className="rounded-md bg-red-50 p-2 text-sm text-red-700">
            {errorMessage(create.error)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
