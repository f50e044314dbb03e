import type { FieldValues } from 'react-hook-form';
import { validateText } from './messages';
import { FormField } from './form-field';
import { useFieldController, type FieldBaseProps } from './use-field-controller';

export interface TextFieldProps<TValues extends FieldValues> extends FieldBaseProps<TValues> {
  type?: 'text' | 'email' | 'password' | 'url';
  readOnly?: boolean;
  /** The server's limit on the trimmed text; a longer one shows its message under the field. */
  maxLength?: number;
  autoFocus?: boolean;
  /** Values the browser offers as the user types; any other text is still accepted. */
  suggestions?: readonly string[];
  /** A format rule for filled-in text (a redis address as host:port): the message when it is wrong, else null. */
  validate?: (text: string) => string | null;
}

export function TextField<TValues extends FieldValues>({
  placeholder,
  type = 'text',
  disabled,
  readOnly,
  maxLength,
  autoFocus,
  suggestions,
  validate,
  ...base
}: TextFieldProps<TValues>) {
  const required = base.required ?? false;
  const { formFieldProps, controlProps } = useFieldController({
    ...base,
    validate: (value: unknown) => {
      const basic = validateText(value, required, maxLength);
      if (basic !== true || validate === undefined || typeof value !== 'string' || value.trim() === '') return basic;
      return validate(value) ?? true;
    },
  });
  const listId = `${controlProps.id}-suggestions`;
  return (
    <FormField {...formFieldProps}>
      <input
        {...controlProps}
        type={type}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readOnly}
        autoFocus={autoFocus}
        list={suggestions === undefined ? undefined : listId}
      />
      {suggestions !== undefined && (
        <datalist id={listId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      )}
    </FormField>
  );
}
