import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { NUMBER_MESSAGE, REQUIRED_MESSAGE } from './messages';
import { FormField } from './form-field';
import { useFieldController, type FieldBaseProps } from './use-field-controller';

export interface NumberFieldProps<TValues extends FieldValues> extends FieldBaseProps<TValues> {
  min?: number;
  max?: number;
}

/**
 * Keeps a number in the form when the text is numeric, `null` when empty, and the raw text otherwise so validation
 * can say it is not a number instead of silently dropping it.
 */
export function NumberField<TValues extends FieldValues>({
  placeholder,
  min,
  max,
  disabled,
  ...base
}: NumberFieldProps<TValues>) {
  const required = base.required ?? false;
  const { field, formFieldProps, controlProps } = useFieldController({
    ...base,
    validate: (value: unknown) => {
      if (value === null || value === undefined || value === '') return !required || REQUIRED_MESSAGE;
      if (typeof value !== 'number' || Number.isNaN(value)) return NUMBER_MESSAGE;
      if (min !== undefined && value < min) return `Must be at least ${min}`;
      if (max !== undefined && value > max) return `Must be at most ${max}`;
      return true;
    },
  });
  const [text, setText] = useState(() => (field.value === null || field.value === undefined ? '' : String(field.value)));

  const handleChange = (next: string) => {
    setText(next);
    const trimmed = next.trim();
    if (trimmed === '') field.onChange(null);
    else if (Number.isFinite(Number(trimmed))) field.onChange(Number(trimmed));
    else field.onChange(next);
  };

  return (
    <FormField {...formFieldProps}>
      <input
        {...controlProps}
        type="text"
        inputMode="decimal"
        value={text}
        onChange={(event) => handleChange(event.target.value)}
        placeholder={placeholder}
        disabled={disabled}
      />
    </FormField>
  );
}
