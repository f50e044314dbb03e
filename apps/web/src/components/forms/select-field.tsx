import type { ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { REQUIRED_MESSAGE } from './messages';
import { FormField, describedBy, fieldIds } from './form-field';

export interface SelectFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  options: readonly DropdownOption[];
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
}

export function SelectField<TValues extends FieldValues>({
  control,
  name,
  label,
  options,
  required = false,
  hint,
  placeholder,
  disabled,
}: SelectFieldProps<TValues>) {
  const { field, fieldState } = useController({
    control,
    name,
    rules: { validate: (value: unknown) => !required || (typeof value === 'string' && value !== '') || REQUIRED_MESSAGE },
  });
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label={label} required={required} hint={hint} error={error}>
      <Dropdown
        id={id}
        name={field.name}
        options={options}
        value={typeof field.value === 'string' && field.value !== '' ? field.value : undefined}
        onChange={(value) => {
          field.onChange(value);
          field.onBlur();
        }}
        placeholder={placeholder}
        disabled={disabled}
        invalid={Boolean(error)}
        describedBy={describedBy(name, Boolean(hint), Boolean(error))}
        className="w-full"
      />
    </FormField>
  );
}
