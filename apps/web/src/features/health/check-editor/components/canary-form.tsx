import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FormActions } from '@/components/form-actions/form-actions';
import { TextField } from '@/components/forms/text-field';
import { usePermissions } from '@/lib/auth/permissions';
import type { SettingsResource, SettingsResourceInput } from '@/lib/settings-resources/api/types';
import { ObjectTextField } from '@/lib/settings-resources/components/object-text-field';
import { isResourceReadOnly, stringLabels } from '@/lib/settings-resources/components/resource-form';
import { SaveError } from '@/lib/settings-resources/components/save-error';
import type { ResourceFormProps } from '@/lib/settings-resources/settings-resource-kind';
import type { CanaryFormValues, SpecMode } from '../canary-form-values';
import { CANARY_LIMITS } from '../canary-limits';
import { checkFormFromSpec, emptyCheckForm, specFromCheckForm, specTemplate } from '../check-spec-model';
import { checkTypeChoice, checkTypeOptionsFor } from '../health-check-types';
import { HealthCheckForm } from './health-check-form';

const DEFAULT_CHECK_TYPE = 'http';
const NO_FORM_MESSAGE = 'This spec cannot be shown as a form; edit it as YAML.';

function initialValues(resource: SettingsResource | undefined): CanaryFormValues {
  const spec = resource?.spec ?? {};
  const fromSpec = resource ? checkFormFromSpec(spec) : null;
  const showForm = resource === undefined || fromSpec !== null;
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
export function canaryInput(values: CanaryFormValues): SettingsResourceInput {
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

/**
 * The Spec tab of a health check: name and namespace (fixed once created), labels, and the spec either as the check
 * form of its type or as YAML. A canary another source defined is read-only, so it shows as YAML.
 */
export function CanaryForm({ kind, resource, canWrite, isSaving, onSubmit, onDelete, onCancel, saveError }: ResourceFormProps) {
  const isEditing = resource !== undefined;
  const isReadOnly = isResourceReadOnly(resource, canWrite);
  const { control, handleSubmit, setValue, getValues, trigger } = useForm<CanaryFormValues>({ mode: 'onTouched', defaultValues: initialValues(resource) });
  const specMode = useWatch({ control, name: 'specMode' });
  const checkType = useWatch({ control, name: 'check.type' });
  const checkFields = useWatch({ control, name: 'check.fields' });
  const [specVersion, setSpecVersion] = useState(0);
  const [modeMessage, setModeMessage] = useState<string | null>(null);
  const { roles } = usePermissions();
  const typeOptions = checkTypeOptionsFor(roles, checkType);
  // Built once per form: a new schema object would make the editor set itself up again.
  const specSchema = useMemo(() => kind.specSchema?.(), [kind]);

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
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(canaryInput(values)))} aria-label={`${kind.singular} spec`} className="flex flex-col gap-3">
      <TextField control={control} name="name" label="Name" required maxLength={CANARY_LIMITS.name} disabled={isEditing || isSaving} />
      <TextField control={control} name="namespace" label="Namespace" required maxLength={CANARY_LIMITS.namespace} disabled={isEditing || isSaving} />
      <ObjectTextField label="Labels" value={getValues('labels')} onChange={(labels) => setValue('labels', labels, { shouldDirty: true })} readOnly={isReadOnly} rows={3} />
      {!isReadOnly && (
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
        />
      )}
      {saveError !== undefined && saveError !== null && <SaveError error={saveError} />}
      {canWrite && <FormActions isEditing={isEditing} isSaving={isSaving} submitDisabled={isReadOnly && isEditing} onDelete={onDelete} onCancel={onCancel} />}
    </form>
  );
}
