import type { ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { validateText } from './messages';
import { FormField, describedBy, fieldIds } from './form-field';
import { inputClass } from './styles';

export interface TextFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'email' | 'password' | 'url';
  disabled?: boolean;
  readOnly?: boolean;
  /** The server's limit on the trimmed text; a longer one shows its message under the field. */
  maxLength?: number;
  autoFocus?: boolean;
  /** Values the browser offers as the user types; any other text is still accepted. */
  suggestions?: readonly string[];
}

export function TextField<TValues extends FieldValues>({
  control,
  name,
  label,
  required = false,
  hint,
  placeholder,
  type = 'text',
  disabled,
  readOnly,
  maxLength,
  autoFocus,
  suggestions,
}: TextFieldProps<TValues>) {
  const { field, fieldState } = useController({
    control,
    name,
    rules: { validate: (value: unknown) => validateText(value, required, maxLength) },
  });
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label={label} required={required} hint={hint} error={error}>
      <input
        id={id}
        type={type}
        name={field.name}
        ref={field.ref}
        value={typeof field.value === 'string' ? field.value : ''}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readOnly}
        autoFocus={autoFocus}
        list={suggestions === undefined ? undefined : `${id}-suggestions`}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, Boolean(hint), Boolean(error))}
        className={inputClass(Boolean(error))}
      />
      {suggestions !== undefined && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      )}
    </FormField>
  );
}
