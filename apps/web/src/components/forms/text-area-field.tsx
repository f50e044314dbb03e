import type { FieldValues } from 'react-hook-form';
import { validateText } from './messages';
import { FormField } from './form-field';
import { inputClass } from './styles';
import { useFieldController, type FieldBaseProps } from './use-field-controller';

export interface TextAreaFieldProps<TValues extends FieldValues> extends FieldBaseProps<TValues> {
  rows?: number;
  readOnly?: boolean;
  /** The server's limit on the trimmed text; a longer one shows its message under the field. */
  maxLength?: number;
}

export function TextAreaField<TValues extends FieldValues>({
  placeholder,
  rows = 3,
  disabled,
  readOnly,
  maxLength,
  ...base
}: TextAreaFieldProps<TValues>) {
  const required = base.required ?? false;
  const { invalid, formFieldProps, controlProps } = useFieldController({
    ...base,
    validate: (value: unknown) => validateText(value, required, maxLength),
  });
  return (
    <FormField {...formFieldProps}>
      <textarea
        {...controlProps}
        rows={rows}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readOnly}
        className={inputClass(invalid, 'resize-y')}
      />
    </FormField>
  );
}
