import type { ReactNode } from 'react';
import { clsx } from 'clsx';

export interface PickOption {
  id: string;
  label: ReactNode;
  /** Shown after the label, e.g. the item's type. */
  detail?: ReactNode;
  /** Already linked: shown, but not pickable. */
  disabled?: boolean;
}

export interface PickListProps {
  /** Group name of the radios and the list's accessible name. */
  name: string;
  label: string;
  options: readonly PickOption[];
  value: string | null;
  onChange: (id: string) => void;
}

/**
 * A radio list to pick one item. Native radios give the keyboard behaviour for free: arrows move the pick (skipping
 * disabled items) and Enter submits the form the list sits in.
 */
export function PickList({ name, label, options, value, onChange }: PickListProps) {
  return (
    <fieldset className="flex max-h-72 flex-col gap-0.5 overflow-auto">
      <legend className="sr-only">{label}</legend>
      {options.map((option) => (
        <label
          key={option.id}
          className={clsx(
            'flex items-center gap-2 rounded px-2 py-1 text-sm',
            option.disabled ? 'cursor-not-allowed text-gray-400' : 'cursor-pointer hover:bg-gray-50',
            value === option.id && 'bg-blue-50',
          )}
        >
          <input type="radio" name={name} value={option.id} checked={value === option.id} disabled={option.disabled} onChange={() => onChange(option.id)} />
          <span className="min-w-0 flex-1 truncate">{option.label}</span>
          {option.detail !== undefined && <span className="shrink-0 text-xs text-gray-500">{option.detail}</span>}
        </label>
      ))}
    </fieldset>
  );
}
