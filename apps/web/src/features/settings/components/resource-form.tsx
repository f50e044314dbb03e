import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { canarySpecJsonSchema, incidentRuleSpecJsonSchema, logBackendSpecJsonSchema, scrapeConfigJsonSchema, topologySpecJsonSchema } from '@opsdeck/shared';
import type { JsonSchema } from '@/components/code-editor/code-editor';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FormActions } from '@/components/form-actions/form-actions';
import { TextField } from '@/components/forms/text-field';
import { errorDetails, errorMessage } from '@/components/toast/toast';
import { usePermissions } from '@/lib/auth/permissions';
import { isUiSource } from '@/lib/resource-origin/resource-origin';
import type { SettingsResource, SettingsResourceInput } from '../api/types';
import { CANARY_LIMITS } from '../canary-limits';
import { checkFormFromSpec, emptyCheckForm, specFromCheckForm, specTemplate } from '../check-spec-model';
import { checkTypeChoice, checkTypeOptionsFor } from '../health-check-types';
import type { SettingsResourceKind } from '../resource-kinds';
import type { ResourceFormValues, SpecMode } from '../resource-form-values';
import { HealthCheckForm } from './health-check-form';
import { ObjectTextField } from './object-text-field';
import { IncidentRuleSummary } from './incident-rule-summary';

const DEFAULT_CHECK_TYPE = 'http';
const NO_FORM_MESSAGE = 'This spec cannot be shown as a form; edit it as YAML.';

function specSchemaFor(editor: SettingsResourceKind['specEditor']): JsonSchema | undefined {
  switch (editor) {
    case 'health-check':
      return canarySpecJsonSchema();
    case 'scrape-config':
      return scrapeConfigJsonSchema;
    case 'topology':
      return topologySpecJsonSchema;
    case 'log-backend':
      return logBackendSpecJsonSchema();
    case 'incident-rule':
      return incidentRuleSpecJsonSchema();
    case 'yaml':
      return undefined;
  }
}

function stringLabels(labels: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([, value]) => value !== null && typeof value !== 'object').map(([key, value]) => [key, String(value)]));
}

function initialValues(kind: SettingsResourceKind, resource: SettingsResource | undefined): ResourceFormValues {
  const spec = resource?.spec ?? { ...kind.newSpec };
  const fromSpec = kind.specEditor === 'health-check' && resource ? checkFormFromSpec(spec) : null;
  const showForm = kind.specEditor === 'health-check' && (resource === undefined || fromSpec !== null);
  return {
    name: resource?.name ?? '',
    namespace: resource?.namespace ?? 'default',
    labels: resource?.labels ?? {},
    specMode: showForm ? 'form' : 'yaml',
    spec,
    check: fromSpec ?? emptyCheckForm(DEFAULT_CHECK_TYPE),
  };
}

/** What a saved form sends: a form-mode health check also sets the canary's schedule, icon and description. */
export function resourceInput(values: ResourceFormValues): SettingsResourceInput {
  const base = { name: values.name.trim(), namespace: values.namespace.trim(), labels: stringLabels(values.labels) };
  if (values.specMode === 'yaml') return { ...base, spec: values.spec };
  const { check } = values;
  return {
    ...base,
    spec: specFromCheckForm(check),
    schedule: check.schedule === '' ? null : check.schedule,
    icon: check.icon.trim() === '' ? null : check.icon.trim(),
    description: check.description.trim() === '' ? null : check.description.trim(),
  };
}

export interface ResourceFormProps {
  kind: SettingsResourceKind;
  /** The resource being edited; without one the form creates a resource. */
  resource?: SettingsResource;
  canWrite: boolean;
  isSaving: boolean;
  onSubmit: (input: SettingsResourceInput) => void;
  onDelete?: () => void;
  onCancel?: () => void;
  /** The last save's failure, shown above the buttons as well as in its toast so it stays while the user fixes it. */
  saveError?: unknown;
}

/**
 * The explanation beyond the message: an API error's body carries it, a data API error (postgrest-js) has it as its
 * own `details` and `hint`, such as the spec path a save rule refused.
 */
function saveErrorDetails(error: unknown): string | null {
  const fromBody = errorDetails(error);
  if (fromBody !== null || typeof error !== 'object' || error === null) return fromBody;
  const parts = ['details' in error ? error.details : null, 'hint' in error ? error.hint : null].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' — ');
}

function SaveError({ error }: { error: unknown }) {
  const details = saveErrorDetails(error);
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
      <p>{errorMessage(error)}</p>
      {details !== null && <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-red-800">{details}</p>}
    </div>
  );
}

/**
 * The Spec tab of a settings resource: name and namespace (fixed once created), labels and the spec. Resources with a
 * source other than the UI were defined elsewhere, so their labels and spec are read-only.
 */
export function ResourceForm({ kind, resource, canWrite, isSaving, onSubmit, onDelete, onCancel, saveError }: ResourceFormProps) {
  const isEditing = resource !== undefined;
  const isReadOnly = !canWrite || (resource !== undefined && !isUiSource(resource.source));
  const {
    control,
    handleSubmit,
    setValue,
    getValues,
    trigger,
    formState: { isValid },
  } = useForm<ResourceFormValues>({ mode: 'onTouched', defaultValues: initialValues(kind, resource) });
  const specMode = useWatch({ control, name: 'specMode' });
  const spec = useWatch({ control, name: 'spec' });
  const [isSpecTextInvalid, setIsSpecTextInvalid] = useState(false);
  const specProblems = useMemo(() => (kind.specProblems === undefined || isReadOnly ? [] : kind.specProblems(spec)), [kind, spec, isReadOnly]);
  // Kinds with their own spec rules (log backends, spec 001 §5) keep Save back until the whole form would pass.
  const isHeldBack = kind.specProblems !== undefined && (!isValid || isSpecTextInvalid || specProblems.length > 0);
  const checkType = useWatch({ control, name: 'check.type' });
  const checkFields = useWatch({ control, name: 'check.fields' });
  const [specVersion, setSpecVersion] = useState(0);
  const [modeMessage, setModeMessage] = useState<string | null>(null);
  const { roles } = usePermissions();
  const typeOptions = checkTypeOptionsFor(roles, checkType);
  // Built once per form: a new schema object would make the editor set itself up again.
  const specSchema = useMemo(() => specSchemaFor(kind.specEditor), [kind.specEditor]);

  const handleModeChange = (next: SpecMode) => {
    setModeMessage(null);
    if (next === 'yaml') {
      setValue('spec', specFromCheckForm(getValues('check')));
      setSpecVersion((version) => version + 1);
      setValue('specMode', 'yaml');
      return;
    }
    const fromSpec = checkFormFromSpec(getValues('spec'));
    if (fromSpec === null && Object.keys(getValues('spec')).length > 0) {
      setModeMessage(NO_FORM_MESSAGE);
      return;
    }
    setValue('check', fromSpec ?? emptyCheckForm(DEFAULT_CHECK_TYPE));
    setValue('specMode', 'form');
  };

  const handleTypeChange = (type: string) => {
    const current = getValues('check');
    if (checkTypeChoice(type)?.fields) {
      setValue('check', { ...emptyCheckForm(type), name: current.name, icon: current.icon, schedule: current.schedule, description: current.description });
      return;
    }
    // No form for this type: start the YAML editor from a template instead.
    setValue('spec', specTemplate(type, current.schedule));
    setSpecVersion((version) => version + 1);
    setValue('specMode', 'yaml');
  };

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(resourceInput(values)))} aria-label={`${kind.singular} spec`} className="flex flex-col gap-3">
      <TextField control={control} name="name" label="Name" required maxLength={CANARY_LIMITS.name} disabled={isEditing || isSaving} />
      {kind.hasNamespace !== false && (
        <TextField control={control} name="namespace" label="Namespace" required maxLength={CANARY_LIMITS.namespace} disabled={isEditing || isSaving} />
      )}
      {kind.hasLabels !== false && (
        <ObjectTextField label="Labels" value={getValues('labels')} onChange={(labels) => setValue('labels', labels, { shouldDirty: true })} readOnly={isReadOnly} rows={3} />
      )}
      {kind.specEditor === 'health-check' && !isReadOnly && (
        <div className="flex flex-wrap items-end gap-3">
          <div role="radiogroup" aria-label="Spec editor" className="inline-flex rounded-md ring-1 ring-gray-300">
            {(['form', 'yaml'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                role="radio"
                aria-checked={specMode === mode}
                onClick={() => handleModeChange(mode)}
                className={specMode === mode ? 'bg-blue-600 px-3 py-1 text-sm text-white' : 'px-3 py-1 text-sm text-gray-700 hover:bg-gray-50'}
              >
                {mode === 'form' ? 'Form' : 'YAML'}
              </button>
            ))}
          </div>
          {specMode === 'form' && (
            <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
              Check Type
              <Dropdown label="Check Type" options={typeOptions} value={checkType} onChange={handleTypeChange} disabled={isSaving} />
            </label>
          )}
        </div>
      )}
      {modeMessage && (
        <p role="status" className="text-sm text-amber-700">
          {modeMessage}
        </p>
      )}
      {specMode === 'form' && !isReadOnly ? (
        <HealthCheckForm key={checkType} control={control} type={checkType} fieldValues={checkFields} revalidate={trigger} disabled={isSaving} roles={roles} />
      ) : (
        <ObjectTextField
          key={specVersion}
          label="Spec"
          value={getValues('spec')}
          onChange={(spec) => setValue('spec', spec, { shouldDirty: true })}
          readOnly={isReadOnly}
          rows={14}
          schema={specSchema}
          hint={isReadOnly && canWrite ? 'Defined outside the UI: read-only here' : undefined}
          onInvalidChange={setIsSpecTextInvalid}
        />
      )}
      {kind.specEditor === 'incident-rule' && <IncidentRuleSummary spec={spec} />}
      {kind.specProblems !== undefined && !isReadOnly && (
        // Present before there is anything to say, so screen readers announce the problems as they appear.
        <div aria-live="polite">
          {specProblems.length > 0 && (
            <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <p className="font-medium">The spec cannot be saved yet:</p>
              <ul aria-label="Spec problems" className="mt-1 list-disc pl-5">
                {specProblems.map((problem, index) => (
                  <li key={`${index}:${problem}`}>{problem}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
      {saveError !== undefined && saveError !== null && <SaveError error={saveError} />}
      {canWrite && (
        <FormActions
          isEditing={isEditing}
          isSaving={isSaving}
          submitDisabled={(isReadOnly && isEditing) || isHeldBack}
          onDelete={onDelete}
          onCancel={onCancel}
        />
      )}
    </form>
  );
}
