import { useEffect, useState, type ChangeEvent } from 'react';
import { useController, type Control } from 'react-hook-form';
import { isSealedSecret, type SealedSecret } from '@opsdeck/shared';
import { FormField, fieldIds } from '@/components/forms/form-field';
import { inputClass } from '@/components/forms/styles';
import { NumberField } from '@/components/forms/number-field';
import { SelectField } from '@/components/forms/select-field';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { useConnectionRefsQuery } from '@/lib/api/connection-refs';
import { isCheckFieldRequired, isCheckFieldVisible, type CheckFieldValue } from '../check-spec-model';
import { SCHEDULE_CHOICES, checkTypeChoice, fieldName, mayChooseCheckType, type CheckFieldDefinition } from '../health-check-types';
import type { CanaryFormValues } from '../canary-form-values';
import { CANARY_LIMITS } from '../canary-limits';
import { ResponseCodesField } from './response-codes-field';

const SCHEDULE_OPTIONS = SCHEDULE_CHOICES.map((schedule) => ({ value: schedule, label: schedule }));

const SECRET_SET_PLACEHOLDER = 'Secret is set — type to replace';

interface SecretFieldProps {
  control: Control<CanaryFormValues>;
  name: `check.fields.${string}`;
  label: string;
  disabled: boolean;
  /** A sealed text of several lines (a request body) rather than a password. */
  multiline?: boolean;
}

/**
 * A password or other sealed value of the spec. The server never sends a stored secret back, only its envelope: the
 * input then stays empty and the envelope is kept unless a new value is typed (clearing what was typed keeps it
 * too) or Remove is pressed.
 */
function SecretField({ control, name, label, disabled, multiline = false }: SecretFieldProps) {
  const { field } = useController({ control, name });
  const [stored, setStored] = useState<SealedSecret | null>(() => (isSealedSecret(field.value) ? field.value : null));
  const isSet = isSealedSecret(field.value);
  const { id } = fieldIds(name);
  const handleRemove = () => {
    setStored(null);
    field.onChange('');
  };
  const handleChange = (value: string) => field.onChange(value === '' && stored !== null ? stored : value);
  const inputProps = {
    id,
    name: field.name,
    ref: field.ref,
    value: typeof field.value === 'string' ? field.value : '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => handleChange(event.target.value),
    onBlur: field.onBlur,
    placeholder: stored !== null ? SECRET_SET_PLACEHOLDER : undefined,
    disabled,
    className: inputClass(false),
  };
  return (
    <FormField id={id} label={label}>
      <div className={multiline ? 'flex items-start gap-2' : 'flex items-center gap-2'}>
        {multiline ? (
          <textarea {...inputProps} rows={5} />
        ) : (
          <input {...inputProps} type="password" autoComplete="new-password" />
        )}
        {isSet && (
          <button type="button" onClick={handleRemove} disabled={disabled} className="shrink-0 text-sm text-gray-600 underline hover:text-gray-900">
            Remove
          </button>
        )}
      </div>
    </FormField>
  );
}

interface ConnectionFieldProps {
  control: Control<CanaryFormValues>;
  name: `check.fields.${string}`;
  field: CheckFieldDefinition;
  disabled: boolean;
}

/** A typed `connection://namespace/name` reference, with the stored connections of the check's type suggested. */
function ConnectionField({ control, name, field, disabled }: ConnectionFieldProps) {
  const refs = useConnectionRefsQuery(field.connectionType ?? null);
  return (
    <TextField
      control={control}
      name={name}
      label={field.label}
      required={field.required}
      placeholder={field.placeholder}
      suggestions={refs.data ?? []}
      disabled={disabled}
    />
  );
}

/** Validates one field again, e.g. `trigger` of the form. */
export type RevalidateField = (name: `check.fields.${string}`) => unknown;

interface CheckFieldProps {
  control: Control<CanaryFormValues>;
  field: CheckFieldDefinition;
  fieldValues: Record<string, CheckFieldValue>;
  revalidate: RevalidateField;
  disabled: boolean;
}

function CheckField({ control, field: definition, fieldValues, revalidate, disabled }: CheckFieldProps) {
  const name = `check.fields.${fieldName(definition)}` as const;
  const required = isCheckFieldRequired(definition, fieldValues);
  // A URL flagged as required goes back to valid as soon as a connection is named, not only at the next Save.
  useEffect(() => {
    if (control.getFieldState(name).error !== undefined) void revalidate(name);
  }, [required, control, name, revalidate]);
  const field = { ...definition, required };
  switch (field.input) {
    case 'number':
      return <NumberField control={control} name={name} label={field.label} required={field.required} min={field.min} placeholder={field.placeholder} disabled={disabled} />;
    case 'select':
      return (
        <SelectField
          control={control}
          name={name}
          label={field.label}
          required={field.required}
          options={(field.options ?? []).map((option) => ({ value: option, label: option }))}
          disabled={disabled}
        />
      );
    case 'codes':
      return <ResponseCodesField control={control} name={name} label={field.label} disabled={disabled} />;
    case 'textarea':
      if (field.sealed === true) return <SecretField control={control} name={name} label={field.label} disabled={disabled} multiline />;
      return <TextAreaField control={control} name={name} label={field.label} required={field.required} placeholder={field.placeholder} rows={5} disabled={disabled} />;
    case 'password':
      return <SecretField control={control} name={name} label={field.label} disabled={disabled} />;
    case 'connection':
      return <ConnectionField control={control} name={name} field={field} disabled={disabled} />;
    case 'list':
      return <TextField control={control} name={name} label={field.label} hint="Separate values with commas" placeholder={field.placeholder} disabled={disabled} />;
    case 'text':
      return <TextField control={control} name={name} label={field.label} required={field.required} placeholder={field.placeholder} validate={field.validate} disabled={disabled} />;
  }
}

export interface HealthCheckFormProps {
  control: Control<CanaryFormValues>;
  type: string;
  fieldValues: Record<string, CheckFieldValue>;
  revalidate: RevalidateField;
  disabled: boolean;
  /** The user's roles: a check that runs code on the server is read-only without the execute permission. */
  roles?: readonly string[];
}

/** A health-check form (spec 001 §2.7): Name, Icon, Schedule, Description, the type's fields and Advanced. */
export function HealthCheckForm({ control, type, fieldValues, revalidate, disabled: isBusy, roles = [] }: HealthCheckFormProps) {
  const isLocked = !mayChooseCheckType(roles, type);
  const disabled = isBusy || isLocked;
  const fields = (checkTypeChoice(type)?.fields ?? []).filter((field) => isCheckFieldVisible(field, fieldValues));
  const main = fields.filter((field) => field.section === 'main');
  const advanced = fields.filter((field) => field.section === 'advanced');
  return (
    <div className="flex flex-col gap-3">
      {isLocked && (
        <p role="note" className="text-sm text-amber-700">
          This check runs a script on the server: only users with the execute permission (administrators) can change it.
        </p>
      )}
      <TextField control={control} name="check.name" label="Name" required disabled={disabled} />
      <TextField control={control} name="check.icon" label="Icon" placeholder="http" maxLength={CANARY_LIMITS.icon} disabled={disabled} />
      <SelectField control={control} name="check.schedule" label="Schedule" options={SCHEDULE_OPTIONS} placeholder="Select a schedule" disabled={disabled} />
      <TextAreaField control={control} name="check.description" label="Description" rows={2} maxLength={CANARY_LIMITS.description} disabled={disabled} />
      {main.map((field) => (
        <CheckField key={fieldName(field)} control={control} field={field} fieldValues={fieldValues} revalidate={revalidate} disabled={disabled} />
      ))}
      {advanced.length > 0 && (
        <details className="rounded-md border border-gray-200 px-3 py-2">
          <summary className="cursor-pointer text-sm font-medium text-gray-800">Advanced</summary>
          <div className="mt-3 flex flex-col gap-3">
            {advanced.map((field) => (
              <CheckField key={fieldName(field)} control={control} field={field} fieldValues={fieldValues} revalidate={revalidate} disabled={disabled} />
            ))}
          </div>
        </details>
      )}
    </div>
  );
}
