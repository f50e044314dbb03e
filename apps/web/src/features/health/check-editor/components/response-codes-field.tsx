import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { RESPONSE_CODES } from '../health-check-types';

export interface ResponseCodesFieldProps<TValues extends FieldValues> {
  control: Control<TValues>;
  name: FieldPath<TValues>;
  label: string;
  disabled?: boolean;
}

/** The expected response codes, chosen from the spec's list (spec 001 §9). */
export function ResponseCodesField<TValues extends FieldValues>({ control, name, label, disabled }: ResponseCodesFieldProps<TValues>) {
  const { field } = useController({ control, name });
  const selected: number[] = Array.isArray(field.value) ? (field.value as number[]) : [];

  const handleToggle = (code: number, checked: boolean) => {
    field.onChange(checked ? [...selected, code] : selected.filter((value) => value !== code));
  };

  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-sm font-medium text-gray-800">{label}</legend>
      <div className="flex flex-wrap gap-3">
        {RESPONSE_CODES.map((code) => (
          <label key={code} className="inline-flex items-center gap-1 text-sm text-gray-700">
            <input type="checkbox" checked={selected.includes(code)} disabled={disabled} onChange={(event) => handleToggle(code, event.target.checked)} />
            {code}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
