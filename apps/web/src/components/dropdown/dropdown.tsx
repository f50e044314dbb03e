import { useState, type ReactNode } from 'react';
import { Select } from 'radix-ui';
import { clsx } from 'clsx';
import { Check, ChevronDown } from 'lucide-react';

export interface DropdownOption<TValue extends string = string> {
  /** Must not be the empty string: Radix reserves it for "no selection". */
  value: TValue;
  label: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
}

export interface DropdownProps<TValue extends string = string> {
  options: readonly DropdownOption<TValue>[];
  value: TValue | undefined;
  onChange: (value: TValue) => void;
  /** Accessible name of the trigger when no visible label points at it. */
  label?: string;
  placeholder?: string;
  id?: string;
  name?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
}

/**
 * From this many options the closed menu mounts only the chosen one: Radix mounts every item of a closed select to
 * read its text, and a thousand label pairs cost a 170 ms stall on a 2-core machine before the page's rows paint.
 * Shorter menus keep type-ahead on the closed trigger.
 */
const MOUNT_ON_OPEN_FROM = 100;

/** A single-choice select; Radix gives it arrow-key, type-ahead, Enter and Escape handling. */
export function Dropdown<TValue extends string = string>({
  options,
  value,
  onChange,
  label,
  placeholder = 'Select…',
  id,
  name,
  disabled,
  invalid,
  describedBy,
  className,
}: DropdownProps<TValue>) {
  const [open, setOpen] = useState(false);
  const mounted = open || options.length < MOUNT_ON_OPEN_FROM ? options : options.filter((option) => option.value === value);
  const handleValueChange = (next: string) => {
    const option = options.find((candidate) => candidate.value === next);
    if (option) onChange(option.value);
  };

  return (
    <Select.Root value={value ?? ''} onValueChange={handleValueChange} open={open} onOpenChange={setOpen} disabled={disabled} name={name}>
      <Select.Trigger
        id={id}
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={clsx(
          'inline-flex h-8 min-w-32 items-center justify-between gap-2 rounded-md bg-white px-2.5 text-sm text-gray-800 ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-blue-500 disabled:bg-gray-50 disabled:text-gray-400 data-[placeholder]:text-gray-500',
          invalid ? 'ring-red-400' : 'ring-gray-300',
          className,
        )}
      >
        <Select.Value placeholder={placeholder} />
        <Select.Icon>
          <ChevronDown aria-hidden="true" className="size-4 text-gray-500" />
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content position="popper" sideOffset={4} className="z-50 max-h-80 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md bg-white shadow-lg ring-1 ring-gray-200">
          <Select.Viewport className="p-1">
            {mounted.map((option) => (
              <Select.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                className="relative flex cursor-default items-center gap-2 rounded py-1.5 pr-2 pl-7 text-sm text-gray-800 outline-none select-none data-[disabled]:text-gray-400 data-[highlighted]:bg-blue-50"
              >
                <Select.ItemIndicator className="absolute left-2">
                  <Check aria-hidden="true" className="size-3.5" />
                </Select.ItemIndicator>
                {option.icon}
                <Select.ItemText>{option.label}</Select.ItemText>
              </Select.Item>
            ))}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
