import { useState, type ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { NUMBER_MESSAGE, REQUIRED_MESSAGE } from './messages';
import { FormField, describedBy, fieldIds } from './form-field';
import { inputClass } from './styles';

export interface NumberFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  min?: number;
  max?: number;
  disabled?: boolean;
}

/**
 * Keeps a number in the form when the text is numeric, `null` when empty, and the raw text otherwise so validation
 * can say it is not a number instead of silently dropping it.
 */
export function NumberField<TValues extends FieldValues>({
  control,
  name,
  label,
  required = false,
  hint,
  placeholder,
  min,
  max,
  disabled,
}: NumberFieldProps<TValues>) {
  const { field, fieldState } = useController({
    control,
    name,
    rules: {
      validate: (value: unknown) => {
        if (value === null || value === undefined || value === '') return !required || REQUIRED_MESSAGE;
        if (typeof value !== 'number' || Number.isNaN(value)) return NUMBER_MESSAGE;
        if (min !== undefined && value < min) return `Must be at least ${min}`;
        if (max !== undefined && value > max) return `Must be at most ${max}`;
        return true;
      },
    },
  });
  const [text, setText] = useState(() => (field.value === null || field.value === undefined ? '' : String(field.value)));
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;

  const handleChange = (next: string) => {
    setText(next);
    const trimmed = next.trim();
    if (trimmed === '') field.onChange(null);
    else if (Number.isFinite(Number(trimmed))) field.onChange(Number(trimmed));
    else field.onChange(next);
  };

  return (
    <FormField id={id} label={label} required={required} hint={hint} error={error}>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        name={field.name}
        ref={field.ref}
        value={text}
        onChange={(event) => handleChange(event.target.value)}
        onBlur={field.onBlur}
        placeholder={placeholder}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, Boolean(hint), Boolean(error))}
        className={inputClass(Boolean(error))}
      />
    </FormField>
  );
}
