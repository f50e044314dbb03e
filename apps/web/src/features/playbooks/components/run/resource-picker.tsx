import { useId, useState, type KeyboardEvent } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, X } from 'lucide-react';
import { DEBOUNCE_MS } from '@opsdeck/shared';
import { inputClass } from '@/components/forms/styles';
import { handleComboboxKey } from '@/components/forms/combobox-keys';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import {
  RESOURCE_SEARCH_LIMIT,
  usePlaybookResourceQuery,
  useResourceSearchQuery,
  type PlaybookResourceKind,
  type PlaybookResourceOption,
} from '../../api/search-playbook-resources';

export interface ResourcePickerProps {
  id: string;
  kind: PlaybookResourceKind;
  /** Only resources of these types; null for any. */
  types: string[] | null;
  /** Set when picking this playbook's run target: only what its selectors offer it on is listed. */
  targetOf?: string;
  value: string | null;
  onChange: (id: string | null) => void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
  placeholder?: string;
}


/**
 * A searchable single choice over live resources (the ARIA combobox pattern): typing narrows the list by name, the
 * arrows move through it, Enter picks, Escape closes. The list is asked only while open.
 */
export function ResourcePicker({ id, kind, types, targetOf, value, onChange, disabled, invalid = false, describedBy, required, placeholder = 'Search by name…' }: ResourcePickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text, DEBOUNCE_MS.search);
  const matches = useResourceSearchQuery({ kind, search, types, ...(targetOf === undefined ? {} : { targetOf }) }, open);
  // A value picked here is named by its option; one given from outside (a preselected target) is looked up.
  const [picked, setPicked] = useState<PlaybookResourceOption | null>(null);
  const known = picked !== null && picked.id === value ? picked : null;
  const chosen = usePlaybookResourceQuery(kind, known === null ? value : null);
  const options: PlaybookResourceOption[] = matches.data ?? [];
  const chosenName = known?.name ?? chosen.data?.name ?? value ?? '';

  const pick = (option: PlaybookResourceOption) => {
    setPicked(option);
    onChange(option.id);
    setOpen(false);
    setText('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    handleComboboxKey(event, {
      open,
      setOpen,
      items: options,
      active,
      setActive,
      onPick: pick,
      onClose: () => {
        setOpen(false);
        setText('');
      },
      stopEscape: true,
    });

  const optionId = (index: number) => `${listId}-option-${index}`;
  return (
    <div className="relative">
      <div className="relative flex items-center">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] !== undefined ? optionId(active) : undefined}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          placeholder={placeholder}
          value={open ? text : chosenName}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => {
            if (!disabled) setOpen(true);
          }}
          onBlur={() => {
            setOpen(false);
            setText('');
          }}
          onKeyDown={handleKeyDown}
          className={inputClass(invalid, 'pr-14')}
        />
        <span className="absolute right-1.5 flex items-center gap-0.5">
          {value !== null && !disabled && !required && (
            <button
              type="button"
              aria-label="Clear"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onChange(null)}
              className="inline-flex size-6 items-center justify-center rounded text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              <X aria-hidden="true" className="size-3.5" />
            </button>
          )}
          <ChevronDown aria-hidden="true" className="pointer-events-none size-4 text-gray-400" />
        </span>
      </div>
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Matches"
          className="absolute z-50 mt-1 max-h-60 w-full overflow-auto rounded-md bg-white p-1 text-sm shadow-lg ring-1 ring-gray-200"
        >
          {matches.isError ? (
            <li role="presentation" className="px-2 py-1.5 text-red-700">
              Could not load the list
            </li>
          ) : matches.isPending ? (
            <li role="presentation" className="px-2 py-1.5 text-gray-500">
              Searching…
            </li>
          ) : options.length === 0 ? (
            <li role="presentation" className="px-2 py-1.5 text-gray-500">
              No result
            </li>
          ) : (
            options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={option.id === value}
                // Keeps the input focused, so its blur does not close the list before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
                onMouseEnter={() => setActive(index)}
                className={clsx('flex cursor-pointer items-center gap-2 rounded px-2 py-1.5', index === active ? 'bg-blue-50' : undefined)}
              >
                <span className="min-w-0 truncate text-gray-900">{option.name}</span>
                {option.detail !== null && <span className="ml-auto shrink-0 text-xs text-gray-500">{option.detail}</span>}
              </li>
            ))
          )}
          {options.length >= RESOURCE_SEARCH_LIMIT && (
            <li role="presentation" className="px-2 py-1 text-xs text-gray-500">
              Showing the first {RESOURCE_SEARCH_LIMIT} matches; type to narrow
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
