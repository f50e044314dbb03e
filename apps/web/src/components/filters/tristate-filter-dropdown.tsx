import { useMemo } from 'react';
import { Popover } from 'radix-ui';
import { clsx } from 'clsx';
import { ChevronDown } from 'lucide-react';
import { TOGGLE_FILTER_CHIP_LIMIT, decodeTristate, encodeTristate, type TristateValue } from '@opsdeck/shared';
import { TristateToggle } from './tristate-toggle';

export interface TristateFilterOption {
  value: string;
  label?: string;
}

export interface TristateFilterDropdownProps {
  label: string;
  options: readonly TristateFilterOption[];
  /** The selection in the shared codec's URL form, e.g. 'nginx:1,redis:-1'. */
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/** A multi-choice filter where each option can be included or excluded. */
export function TristateFilterDropdown({ label, options, value, onChange, className }: TristateFilterDropdownProps) {
  const selection = useMemo(() => decodeTristate(value), [value]);
  const selected = Object.entries(selection);
  const labelOf = (optionValue: string) => options.find((option) => option.value === optionValue)?.label ?? optionValue;

  const handleToggle = (optionValue: string, state: TristateValue) => {
    onChange(encodeTristate({ ...selection, [optionValue]: state }));
  };

  const included = selected.filter(([, state]) => state === 1).length;
  const excluded = selected.length - included;

  return (
    <Popover.Root>
      <Popover.Trigger
        className={clsx(
          'inline-flex h-8 items-center gap-1.5 rounded-md bg-white px-2.5 text-sm text-gray-700 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500',
          className,
        )}
      >
        <span className="font-medium">{label}</span>
        {selected.length > 0 && selected.length < TOGGLE_FILTER_CHIP_LIMIT && (
          <span className="flex gap-1" data-testid="filter-chips">
            {selected.map(([optionValue, state]) => (
              <span
                key={optionValue}
                className={clsx('rounded px-1 text-xs', state === 1 ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800 line-through')}
              >
                {labelOf(optionValue)}
              </span>
            ))}
          </span>
        )}
        {selected.length >= TOGGLE_FILTER_CHIP_LIMIT && (
          <span className="rounded bg-gray-100 px-1 text-xs text-gray-700" data-testid="filter-counts">
            {[included > 0 && `${included} included`, excluded > 0 && `${excluded} excluded`].filter(Boolean).join(', ')}
          </span>
        )}
        <ChevronDown aria-hidden="true" className="size-4 text-gray-500" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          aria-label={`${label} filter`}
          className="z-50 max-h-80 w-64 overflow-auto rounded-md bg-white p-1 shadow-lg ring-1 ring-gray-200"
        >
          {options.length === 0 && <p className="px-2 py-1.5 text-sm text-gray-500">No options</p>}
          <ul>
            {options.map((option) => (
              <li key={option.value} className="flex items-center justify-between gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50">
                <span className="truncate">{option.label ?? option.value}</span>
                <TristateToggle
                  label={option.label ?? option.value}
                  value={selection[option.value] ?? 0}
                  onChange={(state) => handleToggle(option.value, state)}
                />
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
