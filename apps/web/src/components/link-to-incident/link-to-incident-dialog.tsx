import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  DEFAULT_HYPOTHESIS_STATUS,
  DEFAULT_INCIDENT_SEVERITY,
  DEFAULT_INCIDENT_STATUS,
  DEFAULT_INCIDENT_TYPE,
  EMPTY_HYPOTHESIS_TITLE,
  INCIDENT_MESSAGES,
  TOAST_DURATION_MS,
  childHypothesisType,
  type EvidenceType,
  type HypothesisType,
  type IncidentSeverity,
  type IncidentType,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SearchInput } from '@/components/filters/search-input';
import { SelectField } from '@/components/forms/select-field';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { db, silentDb } from '@/lib/api/db';
import { navigateApp } from '@/lib/app-navigator';
import { useSession } from '@/lib/auth/session';
import { createIncident } from './create-incident';
import { incidentQueryRoot } from './incident-keys';
import { incidentSeverityOptions, incidentTypeOptions } from './incident-field-options';

/** The evidence another area hands over: its type, the linked item and the inner payload. */
export interface LinkableEvidence {
  type: EvidenceType;
  description?: string;
  config_id?: string;
  config_analysis_id?: string;
  config_change_id?: string;
  component_id?: string;
  check_id?: string;
  evidence?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}

export interface LinkToIncidentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  evidence: LinkableEvidence;
  /** Told whether the evidence was attached. */
  onLinked?: (linked: boolean) => void;
}

export const NEW_INCIDENT = 'new';
export const NEW_HYPOTHESIS = 'new';
const INCIDENT_PICKER_LIMIT = 25;

interface IncidentChoice {
  id: string;
  incident_id: string;
  title: string;
}

interface HypothesisChoice {
  id: string;
  title: string | null;
  type: HypothesisType;
}

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

async function searchIncidents(search: string, signal: AbortSignal): Promise<IncidentChoice[]> {
  let query = db.from('incidents').select('id,incident_id,title');
  const text = search.trim();
  if (text !== '') query = query.or(`title.ilike.*${text.replace(/[,()*]/g, ' ')}*,incident_id.ilike.*${text.replace(/[,()*]/g, ' ')}*`);
  const { data } = await query.order('created_at', { ascending: false }).limit(INCIDENT_PICKER_LIMIT).abortSignal(signal).throwOnError();
  const rows: IncidentChoice[] = data;
  return rows;
}

async function incidentHypotheses(incidentId: string, signal: AbortSignal): Promise<HypothesisChoice[]> {
  const { data } = await db
    .from('hypotheses')
    .select('id,title,type')
    .eq('incident_id', incidentId)
    .order('created_at', { ascending: true })
    .abortSignal(signal)
    .throwOnError();
  const rows: HypothesisChoice[] = data;
  return rows;
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
  const session = useSession();
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
    queryKey: [...incidentQueryRoot, 'link-picker', search],
    queryFn: ({ signal }) => searchIncidents(search, signal),
    enabled: open,
  });
  const hypotheses = useQuery({
    queryKey: [...incidentQueryRoot, 'link-picker', 'hypotheses', incident],
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

  const resolveTarget = async (values: LinkValues, createdBy: string | null): Promise<{ incidentId: string; displayId: string; hypothesisId: string } | null> => {
    if (values.incident === NEW_INCIDENT) {
      try {
        const created = await createIncident({
          title: values.incidentTitle,
          description: values.description,
          type: values.type as IncidentType,
          severity: values.severity as IncidentSeverity,
          status: DEFAULT_INCIDENT_STATUS,
          createdBy,
          silent: true,
        });
        return { incidentId: created.id, displayId: created.incident_id, hypothesisId: created.rootHypothesisId };
      } catch (error) {
        console.error('Creating the incident to link to failed', error);
        return null;
      }
    }
    const incidentId = values.incident;
    const displayId = incidents.data?.find((row) => row.id === incidentId)?.incident_id ?? '';
    if (values.hypothesis !== NEW_HYPOTHESIS) return { incidentId, displayId, hypothesisId: values.hypothesis };
    // A new hypothesis hangs under the first one that may have children, the root when there is one.
    const parent = (hypotheses.data ?? []).find((row) => childHypothesisType(row.type) !== null);
    try {
      const { data } = await silentDb
        .from('hypotheses')
        .insert({
          incident_id: incidentId,
          parent_id: parent?.id ?? null,
          type: parent ? childHypothesisType(parent.type) : 'root',
          title: values.hypothesisTitle.trim(),
          status: DEFAULT_HYPOTHESIS_STATUS,
          created_by: createdBy,
        })
        .select('id')
        .single()
        .throwOnError();
      const created: { id: string } = data;
      return { incidentId, displayId, hypothesisId: created.id };
    } catch (error) {
      console.error('Creating the hypothesis to link to failed', error);
      return null;
    }
  };

  const handleValid = async (values: LinkValues) => {
    const createdBy = session.data?.person.id ?? null;
    setIsSaving(true);
    try {
      const target = await resolveTarget(values, createdBy);
      if (target === null) return;
      const description = values.description.trim();
      try {
        await db
          .from('evidences')
          .insert({ ...evidence, description: description === '' ? null : description, hypothesis_id: target.hypothesisId, created_by: createdBy })
          .throwOnError();
      } catch {
        onLinked?.(false);
        close();
        return;
      }
      await queryClient.invalidateQueries({ queryKey: incidentQueryRoot });
      showLinkedToast(target.incidentId, target.displayId);
      onLinked?.(true);
      close();
    } finally {
      setIsSaving(false);
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
