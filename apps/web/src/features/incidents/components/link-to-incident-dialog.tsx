import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  DEFAULT_INCIDENT_SEVERITY,
  DEFAULT_INCIDENT_STATUS,
  DEFAULT_INCIDENT_TYPE,
  EMPTY_HYPOTHESIS_TITLE,
  INCIDENT_MESSAGES,
  TOAST_DURATION_MS,
  type IncidentSeverity,
  type IncidentType,
  type TableRow,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SearchInput } from '@/components/filters/search-input';
import { SelectField } from '@/components/forms/select-field';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { db } from '@/lib/api/db';
import { navigateApp } from '@/lib/app-navigator';
import type { IncidentLinkProps, LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { createIncident } from '../api/create-incident';
import { incidentsKeys } from '../api/keys';
import { linkEvidence } from '../api/link-evidence';
import { searchIncidentChoices } from '../api/search-incidents';
import { incidentSeverityOptions, incidentTypeOptions } from './incident-field-options';

export interface LinkToIncidentDialogProps extends IncidentLinkProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export const NEW_INCIDENT = 'new';
export const NEW_HYPOTHESIS = 'new';
type HypothesisChoice = Pick<TableRow<'hypotheses'>, 'id' | 'title' | 'type'>;

const schema = z
  .object({
    incident: z.string(),
    incidentTitle: z.string(),
    hypothesis: z.string(),
    hypothesisTitle: z.string(),
    description: z.string(),
    type: z.string(),
    severity: z.string(),
  })
  .superRefine((values, context) => {
    const isNew = values.incident === NEW_INCIDENT;
    if (values.incident === '' || (isNew && values.incidentTitle.trim() === '')) {
      context.addIssue({ code: 'custom', path: [isNew ? 'incidentTitle' : 'incident'], message: INCIDENT_MESSAGES.linkNeedsIncident });
    }
    if (!isNew && values.incident !== '' && values.hypothesis === '') {
      context.addIssue({ code: 'custom', path: ['hypothesis'], message: INCIDENT_MESSAGES.linkNeedsHypothesis });
    }
    if (!isNew && values.hypothesis === NEW_HYPOTHESIS && values.hypothesisTitle.trim() === '') {
      context.addIssue({ code: 'custom', path: ['hypothesisTitle'], message: INCIDENT_MESSAGES.linkNeedsHypothesis });
    }
    if (isNew && values.severity === '') context.addIssue({ code: 'custom', path: ['severity'], message: INCIDENT_MESSAGES.linkNeedsSeverity });
    if (isNew && values.type === '') context.addIssue({ code: 'custom', path: ['type'], message: INCIDENT_MESSAGES.linkNeedsType });
  });
type LinkValues = z.infer<typeof schema>;

function defaultValues(evidence: LinkableEvidence): LinkValues {
  return {
    incident: '',
    incidentTitle: '',
    hypothesis: '',
    hypothesisTitle: '',
    description: evidence.description ?? '',
    type: DEFAULT_INCIDENT_TYPE,
    severity: DEFAULT_INCIDENT_SEVERITY,
  };
}

async function incidentHypotheses(incidentId: string, signal: AbortSignal): Promise<HypothesisChoice[]> {
  const { data } = await db
    .from('hypotheses')
    .select('id,title,type')
    .eq('incident_id', incidentId)
    .order('created_at', { ascending: true })
    .abortSignal(signal)
    .throwOnError();
  return data;
}

function showLinkedToast(incidentId: string, displayId: string): void {
  toast.success(
    <span>
      {INCIDENT_MESSAGES.linked}{' '}
      <a
        href={`/incidents/${incidentId}`}
        className="font-medium text-blue-700 underline"
        onClick={(event) => {
          event.preventDefault();
          navigateApp(`/incidents/${incidentId}`);
        }}
      >
        {displayId}
      </a>
    </span>,
    { duration: TOAST_DURATION_MS },
  );
}

/** 'Link to Incident': attaches evidence to an existing incident's hypothesis or to a new incident. */
export function LinkToIncidentDialog({ open, onOpenChange, evidence, onLinked }: LinkToIncidentDialogProps) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [isSaving, setIsSaving] = useState(false);
  const { control, handleSubmit, reset, setValue } = useForm<LinkValues>({ resolver: zodResolver(schema), defaultValues: defaultValues(evidence) });
  const incident = useWatch({ control, name: 'incident' });
  const hypothesis = useWatch({ control, name: 'hypothesis' });
  const isNewIncident = incident === NEW_INCIDENT;

  // A hypothesis belongs to one incident: picking another incident clears the choice.
  useEffect(() => {
    setValue('hypothesis', '');
  }, [incident, setValue]);

  const incidents = useQuery({
    queryKey: [...incidentsKeys.all, 'link-picker', search],
    queryFn: ({ signal }) => searchIncidentChoices(search, signal),
    enabled: open,
  });
  const hypotheses = useQuery({
    queryKey: [...incidentsKeys.all, 'link-picker', 'hypotheses', incident],
    queryFn: ({ signal }) => incidentHypotheses(incident, signal),
    enabled: open && incident !== '' && !isNewIncident,
  });

  const incidentOptions = [
    { value: NEW_INCIDENT, label: 'Create new incident' },
    ...(incidents.data ?? []).map((row) => ({ value: row.id, label: `${row.incident_id} ${row.title}` })),
  ];
  const hypothesisOptions = [
    ...(hypotheses.data ?? []).map((row) => ({ value: row.id, label: `${row.title?.trim() || EMPTY_HYPOTHESIS_TITLE} (${row.type})` })),
    { value: NEW_HYPOTHESIS, label: 'Create new hypothesis' },
  ];

  const close = () => {
    reset(defaultValues(evidence));
    setSearch('');
    onOpenChange(false);
  };

  /** One server command whichever the target, so a failure leaves no incident or hypothesis without the evidence. */
  const link = async (values: LinkValues, attached: LinkableEvidence): Promise<{ incidentId: string; displayId: string }> => {
    if (values.incident === NEW_INCIDENT) {
      const created = await createIncident({
        title: values.incidentTitle,
        description: values.description,
        type: values.type as IncidentType,
        severity: values.severity as IncidentSeverity,
        status: DEFAULT_INCIDENT_STATUS,
        evidence: attached,
      });
      return { incidentId: created.id, displayId: created.incident_id };
    }
    const target = values.hypothesis === NEW_HYPOTHESIS ? { hypothesisTitle: values.hypothesisTitle.trim() } : { hypothesisId: values.hypothesis };
    const linked = await linkEvidence(values.incident, target, attached);
    return { incidentId: linked.incident.id, displayId: linked.incident.incident_id };
  };

  const handleValid = async (values: LinkValues) => {
    const description = values.description.trim();
    setIsSaving(true);
    try {
      const target = await link(values, { ...evidence, description: description === '' ? undefined : description });
      await queryClient.invalidateQueries({ queryKey: incidentsKeys.all });
      showLinkedToast(target.incidentId, target.displayId);
      onLinked?.(true);
    } catch (error) {
      console.error('Linking the evidence to an incident failed', error);
      onLinked?.(false);
    } finally {
      setIsSaving(false);
      close();
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={INCIDENT_MESSAGES.linkDialogTitle}
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={isSaving}>
            Cancel
          </Button>
          <Button type="submit" form="link-to-incident-form" isPending={isSaving}>
            Link
          </Button>
        </>
      }
    >
      <form id="link-to-incident-form" noValidate onSubmit={handleSubmit(handleValid)} className="flex flex-col gap-3">
        <SearchInput value={search} onChange={setSearch} placeholder={INCIDENT_MESSAGES.searchPlaceholder} className="w-full" />
        <SelectField
          control={control}
          name="incident"
          label="Incident"
          options={incidentOptions}
          placeholder={incidents.isPending ? 'Loading incidents…' : 'Select an incident'}
          required
        />
        {isNewIncident && (
          <>
            <TextField control={control} name="incidentTitle" label="Incident title" required />
            <SelectField control={control} name="type" label="Type" options={incidentTypeOptions} required />
            <SelectField control={control} name="severity" label="Severity" options={incidentSeverityOptions} required />
          </>
        )}
        {incident !== '' && !isNewIncident && (
          <SelectField
            control={control}
            name="hypothesis"
            label="Hypothesis"
            options={hypothesisOptions}
            placeholder={hypotheses.isPending ? 'Loading hypotheses…' : 'Select a hypothesis'}
            required
          />
        )}
        {hypothesis === NEW_HYPOTHESIS && <TextField control={control} name="hypothesisTitle" label="Hypothesis title" required />}
        <TextAreaField control={control} name="description" label="Description" />
      </form>
    </Dialog>
  );
}
