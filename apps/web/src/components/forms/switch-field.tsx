import type { ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { Switch } from '@/components/switch/switch';
import { fieldIds } from './form-field';

export interface SwitchFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}

export function SwitchField<TValues extends FieldValues>({ control, name, label, hint, disabled }: SwitchFieldProps<TValues>) {
  const { field } = useController({ control, name });
  const { id, hintId } = fieldIds(name);
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={field.value === true}
        onCheckedChange={(checked) => field.onChange(checked)}
        disabled={disabled}
        describedBy={hint ? hintId : undefined}
      />
      <div className="flex flex-col">
        <label htmlFor={id} className="text-sm font-medium text-gray-800">
          {label}
        </label>
        {hint && (
          <p id={hintId} className="text-xs text-gray-500">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
