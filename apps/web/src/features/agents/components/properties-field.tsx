import { useController, useFieldArray, type Control } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/button/button';
import { inputClass } from '@/components/forms/styles';
import type { AgentFormValues } from '../agent-form-model';

interface PropertyInputProps {
  control: Control<AgentFormValues>;
  index: number;
  part: 'key' | 'value';
  disabled: boolean;
}

function PropertyInput({ control, index, part, disabled }: PropertyInputProps) {
  const { field, fieldState } = useController({ control, name: `properties.${index}.${part}` });
  const error = fieldState.error?.message;
  const errorId = `agent-property-${index}-${part}-error`;
  return (
    <div className="flex flex-1 flex-col gap-1">
      <input
        {...field}
        aria-label={`Property ${index + 1} ${part === 'key' ? 'name' : 'value'}`}
        placeholder={part === 'key' ? 'Name' : 'Value'}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClass(Boolean(error))}
      />
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export interface PropertiesFieldProps {
  control: Control<AgentFormValues>;
  disabled: boolean;
}

/** The agent's properties as name/value rows (spec 001 §3: a map of labels). */
export function PropertiesField({ control, disabled }: PropertiesFieldProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'properties' });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-800">Properties</legend>
      {fields.length === 0 && <p className="text-xs text-gray-500">No properties</p>}
      {fields.map((row, index) => (
        <div key={row.id} className="flex items-start gap-2">
          <PropertyInput control={control} index={index} part="key" disabled={disabled} />
          <PropertyInput control={control} index={index} part="value" disabled={disabled} />
          <Button variant="ghost" aria-label={`Remove property ${index + 1}`} onClick={() => remove(index)} disabled={disabled}>
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        </div>
      ))}
      <div>
        <Button variant="secondary" onClick={() => append({ key: '', value: '' })} disabled={disabled}>
          <Plus aria-hidden="true" className="size-4" />
          Add property
        </Button>
      </div>
    </fieldset>
  );
}
