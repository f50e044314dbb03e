import type { ChangeEvent, ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { describedBy, fieldIds } from './form-field';
import { inputClass } from './styles';

/** The props every text-like field takes. */
export interface FieldBaseProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
}

export interface FieldControllerOptions<TValues extends FieldValues> extends Omit<FieldBaseProps<TValues>, 'placeholder' | 'disabled'> {
  /** True when the value is acceptable, otherwise the message shown under the field. */
  validate: (value: unknown) => true | string;
}

/**
 * The react-hook-form wiring every text-like field shares: the controller with its rule, the label's props (with the
 * required asterisk, hint and error) for FormField, and the control's id, name, ref, text value, change, blur and aria
 * attributes, so each field only says what kind of control it is.
 */
export function useFieldController<TValues extends FieldValues>({ control, name, label, required = false, hint, validate }: FieldControllerOptions<TValues>) {
  const { field, fieldState } = useController({ control, name, rules: { validate } });
  const { id } = fieldIds(name);
  const error = fieldState.error?.message;
  const invalid = error !== undefined && error !== '';
  return {
    field,
    invalid,
    formFieldProps: { id, label, required, hint, error },
    controlProps: {
      id,
      name: field.name,
      ref: field.ref,
      value: typeof field.value === 'string' ? field.value : '',
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => field.onChange(event.target.value),
      onBlur: field.onBlur,
      'aria-required': required || undefined,
      'aria-invalid': invalid || undefined,
      'aria-describedby': describedBy(name, Boolean(hint), invalid),
      className: inputClass(invalid),
    },
  };
}
