import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormActions } from '@/components/form-actions/form-actions';
import { TextField } from '@/components/forms/text-field';
import { isUiSource } from '@/lib/resource-origin/resource-origin';
import type { SettingsResource } from '../api/types';
import type { ResourceFormValues } from '../resource-form-values';
import { RESOURCE_LIMITS, type ResourceFormProps, type SettingsResourceKind } from '../settings-resource-kind';
import { ObjectTextField } from './object-text-field';
import { SaveError } from './save-error';

/** Label values as strings: the tables hold `Record<string, string>`, and a nested value has no place there. */
export function stringLabels(labels: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([, value]) => value !== null && typeof value !== 'object').map(([key, value]) => [key, String(value)]));
}

function initialValues(kind: SettingsResourceKind, resource: SettingsResource | undefined): ResourceFormValues {
  return {
    name: resource?.name ?? '',
    namespace: resource?.namespace ?? 'default',
    labels: resource?.labels ?? {},
    spec: resource?.spec ?? { ...kind.newSpec },
  };
}

/** Resources with a source other than the UI were defined elsewhere, so their labels and spec are read-only. */
export function isResourceReadOnly(resource: SettingsResource | undefined, canWrite: boolean): boolean {
  return !canWrite || (resource !== undefined && !isUiSource(resource.source));
}

/**
 * The Spec tab of a settings resource: name and namespace (fixed once created), labels and the spec as YAML. A kind
 * with a form of its own (health checks) renders that form instead; see `SettingsResourceKind.form`.
 */
export function ResourceForm({ kind, resource, canWrite, isSaving, onSubmit, onDelete, onCancel, saveError }: ResourceFormProps) {
  const isEditing = resource !== undefined;
  const isReadOnly = isResourceReadOnly(resource, canWrite);
  const {
    control,
    handleSubmit,
    setValue,
    getValues,
    formState: { isValid },
  } = useForm<ResourceFormValues>({ mode: 'onTouched', defaultValues: initialValues(kind, resource) });
  const spec = useWatch({ control, name: 'spec' });
  const [isSpecTextInvalid, setIsSpecTextInvalid] = useState(false);
  const specProblems = useMemo(() => (kind.specProblems === undefined || isReadOnly ? [] : kind.specProblems(spec)), [kind, spec, isReadOnly]);
  // Kinds with their own spec rules (log backends, spec 001 §5) keep Save back until the whole form would pass.
  const isHeldBack = kind.specProblems !== undefined && (!isValid || isSpecTextInvalid || specProblems.length > 0);
  // Built once per form: a new schema object would make the editor set itself up again.
  const specSchema = useMemo(() => kind.specSchema?.(), [kind]);
  const SpecSummary = kind.specSummary;

  const handleValidSubmit = (values: ResourceFormValues) => {
    onSubmit({ name: values.name.trim(), namespace: values.namespace.trim(), labels: stringLabels(values.labels), spec: values.spec });
  };

  return (
    <form noValidate onSubmit={handleSubmit(handleValidSubmit)} aria-label={`${kind.singular} spec`} className="flex flex-col gap-3">
      <TextField control={control} name="name" label="Name" required maxLength={RESOURCE_LIMITS.name} disabled={isEditing || isSaving} />
      {kind.hasNamespace !== false && (
        <TextField control={control} name="namespace" label="Namespace" required maxLength={RESOURCE_LIMITS.namespace} disabled={isEditing || isSaving} />
      )}
      {kind.hasLabels !== false && (
        <ObjectTextField label="Labels" value={getValues('labels')} onChange={(labels) => setValue('labels', labels, { shouldDirty: true })} readOnly={isReadOnly} rows={3} />
      )}
      <ObjectTextField
        label="Spec"
        value={getValues('spec')}
        onChange={(next) => setValue('spec', next, { shouldDirty: true })}
        readOnly={isReadOnly}
        rows={14}
        schema={specSchema}
        hint={isReadOnly && canWrite ? 'Defined outside the UI: read-only here' : undefined}
        onInvalidChange={setIsSpecTextInvalid}
      />
      {SpecSummary !== undefined && <SpecSummary spec={spec} />}
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
