import { useId, useState } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormField } from '@/components/forms/form-field';
import { REQUIRED_MESSAGE, maxLengthMessage } from '@/components/forms/messages';
import { inputClass } from '@/components/forms/styles';
import { useFieldController } from '@/components/forms/use-field-controller';

export type SecretSourceMode = 'static' | 'secret' | 'configmap';

const MODES: readonly { value: SecretSourceMode; label: string }[] = [
  { value: 'static', label: 'Static' },
  { value: 'secret', label: 'Secret' },
  { value: 'configmap', label: 'ConfigMap' },
];

/** The reference forms a credential may take instead of the value itself (spec 002 §3). */
export function secretSourceValue(mode: SecretSourceMode, text: string, name: string, key: string): string {
  if (mode === 'static') return text;
  if (name.trim() === '' || key.trim() === '') return '';
  return `${mode}://${name.trim()}/${key.trim()}`;
}

export interface SecretSourceFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: string;
  required?: boolean;
  /** The server holds a value: an empty field keeps it, so it is not required again. */
  isSet?: boolean;
  multiline?: boolean;
  placeholder?: string;
  /** The server's limit on the value; secrets are measured as typed, since they are sent untrimmed. */
  maxLength?: number;
  disabled?: boolean;
}

/**
 * A credential typed in (Static) or read from a Kubernetes secret or config map by name and key. Switching the mode
 * clears what was entered; a reference needs both name and key before it has a value.
 */
export function SecretSourceField<TValues extends FieldValues>({
  control,
  name,
  label,
  required = false,
  isSet = false,
  multiline = false,
  placeholder,
  maxLength,
  disabled,
}: SecretSourceFieldProps<TValues>) {
  const hint = isSet ? `${label} is set — leave empty to keep it` : undefined;
  const { field, invalid, formFieldProps, controlProps } = useFieldController({
    control,
    name,
    label,
    required: required && !isSet,
    hint,
    validate: (value: unknown) => {
      const typed = typeof value === 'string' ? value : '';
      if (required && !isSet && typed === '') return REQUIRED_MESSAGE;
      if (maxLength !== undefined && typed.length > maxLength) return maxLengthMessage(maxLength);
      return true;
    },
  });
  const [mode, setMode] = useState<SecretSourceMode>('static');
  const [reference, setReference] = useState({ name: '', key: '' });
  const groupName = useId();
  const { onBlur, id, 'aria-invalid': ariaInvalid, 'aria-describedby': ariaDescribedBy } = controlProps;

  const handleModeChange = (next: SecretSourceMode) => {
    setMode(next);
    setReference({ name: '', key: '' });
    field.onChange('');
  };

  const handleReferenceChange = (part: 'name' | 'key', value: string) => {
    const next = { ...reference, [part]: value };
    setReference(next);
    field.onChange(secretSourceValue(mode, '', next.name, next.key));
  };

  return (
    <FormField {...formFieldProps}>
      <div role="radiogroup" aria-label={`${label} source`} className="flex gap-3 text-xs text-gray-700">
        {MODES.map((option) => (
          <label key={option.value} className="inline-flex items-center gap-1">
            <input
              type="radio"
              name={groupName}
              value={option.value}
              checked={mode === option.value}
              disabled={disabled}
              onChange={() => handleModeChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
      {mode === 'static' &&
        (multiline ? (
          <textarea
            {...controlProps}
            rows={4}
            placeholder={placeholder}
            disabled={disabled}
            autoComplete="off"
            spellCheck={false}
            className={inputClass(invalid, 'resize-y font-mono text-xs')}
          />
        ) : (
          <input
            {...controlProps}
            type="password"
            placeholder={placeholder}
            disabled={disabled}
            autoComplete="new-password"
          />
        ))}
      {mode !== 'static' && (
        <div className="grid grid-cols-2 gap-2">
          <input
            id={id}
            type="text"
            aria-label={`${label} ${mode === 'secret' ? 'secret' : 'config map'} name`}
            value={reference.name}
            onChange={(event) => handleReferenceChange('name', event.target.value)}
            onBlur={onBlur}
            placeholder="Name"
            disabled={disabled}
            aria-invalid={ariaInvalid}
            aria-describedby={ariaDescribedBy}
            className={inputClass(invalid)}
          />
          <input
            type="text"
            aria-label={`${label} ${mode === 'secret' ? 'secret' : 'config map'} key`}
            value={reference.key}
            onChange={(event) => handleReferenceChange('key', event.target.value)}
            onBlur={onBlur}
            placeholder="Key"
            disabled={disabled}
            aria-invalid={ariaInvalid}
            className={inputClass(invalid)}
          />
        </div>
      )}
    </FormField>
  );
}
