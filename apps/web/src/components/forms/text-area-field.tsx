import type { ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { validateText } from './messages';
import { FormField, describedBy, fieldIds } from './form-field';
import { inputClass } from './styles';

export interface TextAreaFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  rows?: number;
  disabled?: boolean;
  readOnly?: boolean;
  /** The server's limit on the trimmed text; a longer one shows its message under the field. */
  maxLength?: number;
}

export function TextAreaField<TValues extends FieldValues>({
  control,
  name,
  label,
  required = false,
  hint,
  placeholder,
  rows = 3,
  disabled,
  readOnly,
  maxLength,
}: TextAreaFieldProps<TValues>) {
  const { field, fieldState } = useController({
    control,
    name,
    rules: { validate: (value: unknown) => validateText(value, required, maxLength) },
  });
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label={label} required={required} hint={hint} error={error}>
      <textarea
        id={id}
        name={field.name}
        ref={field.ref}
        rows={rows}
        value={typeof field.value === 'string' ? field.value : ''}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readOnly}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, Boolean(hint), Boolean(error))}
        className={inputClass(Boolean(error), 'resize-y')}
      />
    </FormField>
  );
}
