import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { SCRAPE_INTERVALS } from '@opsdeck/shared';
import { SelectField } from '@/components/forms/select-field';
import { SwitchField } from '@/components/forms/switch-field';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { agentFormSchema, type AgentFormValues } from '../agent-form-model';
import { PropertiesField } from './properties-field';

const INTERVAL_OPTIONS = SCRAPE_INTERVALS.map((interval) => ({ value: interval, label: interval }));

export interface AgentFormProps {
  /** The id the dialog's submit button points at with its `form` attribute. */
  formId: string;
  defaultValues: AgentFormValues;
  isEditing: boolean;
  /** Every control is disabled: while saving, or for a user who may only read agents. */
  disabled: boolean;
  onSubmit: (values: AgentFormValues) => void;
}

/** The agent form of spec 001 §3: name, description, properties, kubernetes and push telemetry. */
export function AgentForm({ formId, defaultValues, isEditing, disabled, onSubmit }: AgentFormProps) {
  const { control, handleSubmit } = useForm<AgentFormValues>({ resolver: zodResolver(agentFormSchema), mode: 'onTouched', defaultValues });
  const kubernetesEnabled = useWatch({ control, name: 'kubernetes.enabled' });
  const pushTelemetryEnabled = useWatch({ control, name: 'pushTelemetry.enabled' });

  return (
    <form id={formId} noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Agent" className="flex flex-col gap-4">
      <TextField
        control={control}
        name="name"
        label="Name"
        required
        readOnly={isEditing}
        disabled={!isEditing && disabled}
        autoFocus={!isEditing}
        hint={isEditing ? 'The name cannot be changed once the agent exists.' : undefined}
      />
      <TextAreaField control={control} name="description" label="Description" disabled={disabled} rows={2} />
      <PropertiesField control={control} disabled={disabled} />
      <fieldset className="flex flex-col gap-3 rounded-md border border-gray-200 p-3">
        <legend className="px-1 text-sm font-medium text-gray-800">Kubernetes</legend>
        <SwitchField control={control} name="kubernetes.enabled" label="Scrape this cluster" hint="The agent reports the cluster's resources to the catalog." disabled={disabled} />
        <SelectField control={control} name="kubernetes.interval" label="Scrape interval" options={INTERVAL_OPTIONS} disabled={disabled || !kubernetesEnabled} />
      </fieldset>
      <fieldset className="flex flex-col gap-3 rounded-md border border-gray-200 p-3">
        <legend className="px-1 text-sm font-medium text-gray-800">Push Telemetry</legend>
        <SwitchField control={control} name="pushTelemetry.enabled" label="Push telemetry" hint="The agent pushes its topology to this server." disabled={disabled} />
        <TextField control={control} name="pushTelemetry.topologyName" label="Topology name" disabled={disabled || !pushTelemetryEnabled} />
      </fieldset>
    </form>
  );
}
