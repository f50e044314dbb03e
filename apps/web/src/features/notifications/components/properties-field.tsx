import { useController, type Control } from 'react-hook-form';
import { describedBy, FormField, fieldIds } from '@/components/forms/form-field';
import { inputClass } from '@/components/forms/styles';
import { parseProperties, type NotificationFormValues } from '../notification-form-model';

export interface PropertiesFieldProps {
  control: Control<NotificationFormValues>;
  disabled: boolean;
}

const HINT = 'A JSON object of settings passed to the services, e.g. {"channel": "#ops"}.';

export function PropertiesField({ control, disabled }: PropertiesFieldProps) {
  const { field, fieldState } = useController({
    control,
    name: 'properties',
    rules: {
      validate: (text: string) => {
        const parsed = parseProperties(text);
        return parsed.ok || parsed.message;
      },
    },
  });
  const { id } = fieldIds('properties');
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label="Properties" hint={HINT} error={error}>
      <textarea
        id={id}
        name={field.name}
        ref={field.ref}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        rows={4}
        readOnly={disabled}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy('properties', true, Boolean(error))}
        placeholder="{}"
        className={inputClass(Boolean(error), 'resize-y font-mono')}
      />
    </FormField>
  );
}
