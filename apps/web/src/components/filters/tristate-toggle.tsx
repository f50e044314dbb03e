import { clsx } from 'clsx';
import { Minus, Plus } from 'lucide-react';
import { toggleTristate, type TristateValue } from '@opsdeck/shared';

export interface TristateToggleProps {
  value: TristateValue;
  onChange: (value: TristateValue) => void;
  /** What is being filtered, used in the buttons' names: 'Exclude nginx', 'Include nginx'. */
  label: string;
  className?: string;
}

const BUTTON = 'inline-flex size-6 items-center justify-center rounded focus-visible:outline-2 focus-visible:outline-blue-500';

/** Exclude (-1), no filter (0), include (1); clicking the active side goes back to no filter. */
export function TristateToggle({ value, onChange, label, className }: TristateToggleProps) {
  return (
    <span role="group" aria-label={label} className={clsx('inline-flex gap-0.5', className)}>
      <button
        type="button"
        aria-label={`Exclude ${label}`}
        aria-pressed={value === -1}
        className={clsx(BUTTON, value === -1 ? 'bg-red-100 text-red-700' : 'text-gray-400 hover:bg-gray-100')}
        onClick={() => onChange(toggleTristate(value, -1))}
      >
        <Minus aria-hidden="true" className="size-3.5" />
      </button>
      <button
        type="button"
        aria-label={`Include ${label}`}
        aria-pressed={value === 1}
        className={clsx(BUTTON, value === 1 ? 'bg-green-100 text-green-700' : 'text-gray-400 hover:bg-gray-100')}
        onClick={() => onChange(toggleTristate(value, 1))}
      >
        <Plus aria-hidden="true" className="size-3.5" />
      </button>
    </span>
  );
}
