import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField, describedBy, fieldIds } from '@/components/forms/form-field';
import { REQUIRED_MESSAGE } from '@/components/forms/messages';
import { inputClass } from '@/components/forms/styles';

export interface ValidatedTextFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: string;
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Returns the message for a filled-in value that is wrong. */
  validate: (value: string) => string | null;
}

/** A text field with a format rule besides 'required' (a redis address as host:port). */
export function ValidatedTextField<TValues extends FieldValues>({ control, name, label, required = false, placeholder, disabled, validate }: ValidatedTextFieldProps<TValues>) {
  const { field, fieldState } = useController({
    control,
    name,
    rules: {
      validate: (value: unknown) => {
        const text = typeof value === 'string' ? value : '';
        if (text.trim() === '') return !required || REQUIRED_MESSAGE;
        return validate(text) ?? true;
      },
    },
  });
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label={label} required={required} error={error}>
      <input
        id={id}
        type="text"
        name={field.name}
        ref={field.ref}
        value={typeof field.value === 'string' ? field.value : ''}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        placeholder={placeholder}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, false, Boolean(error))}
        className={inputClass(Boolean(error))}
      />
    </FormField>
  );
}
