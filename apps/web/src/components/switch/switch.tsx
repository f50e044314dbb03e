import { Switch as SwitchPrimitive } from 'radix-ui';
import { clsx } from 'clsx';

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  id?: string;
  /** Accessible name when no <label> points at the switch. */
  label?: string;
  describedBy?: string;
  disabled?: boolean;
}

export function Switch({ checked, onCheckedChange, id, label, describedBy, disabled }: SwitchProps) {
  return (
    <SwitchPrimitive.Root
      id={id}
      checked={checked}
      onCheckedChange={onCheckedChange}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      className={clsx(
        'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-blue-500 disabled:opacity-50',
        checked ? 'bg-blue-600' : 'bg-gray-300',
      )}
    >
      <SwitchPrimitive.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
    </SwitchPrimitive.Root>
  );
}
