import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { clsx } from 'clsx';
import { ChevronDown } from 'lucide-react';
import { handleComboboxKey } from '@/components/forms/combobox-keys';
import type { ComponentOption } from '../api/get-components-with-logs';

export interface ComponentPickerProps {
  components: readonly ComponentOption[];
  value: string | null;
  onChange: (id: string | null) => void;
  isLoading: boolean;
  disabled?: boolean;
}

/** The list shows this many matches at most; typing narrows it, so a large estate does not mount a long list. */
export const COMPONENT_PICKER_LIMIT = 100;
const NONE_LABEL = 'None';

interface Choice {
  id: string | null;
  name: string;
  detail: string | null;
}

/**
 * A searchable choice of the components some log backend serves (the ARIA combobox pattern): typing narrows the list
 * by name or type, the arrows move through it, Enter picks, Escape closes. 'None' clears the choice.
 */
export function ComponentPicker({ components, value, onChange, isLoading, disabled = false }: ComponentPickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const chosen = value === null ? undefined : components.find((component) => component.id === value);

  const choices = useMemo<Choice[]>(() => {
    const needle = text.trim().toLowerCase();
    const matches = components.filter(
      (component) => needle === '' || component.name.toLowerCase().includes(needle) || (component.type ?? '').toLowerCase().includes(needle),
    );
    return [
      { id: null, name: NONE_LABEL, detail: null },
      ...matches.slice(0, COMPONENT_PICKER_LIMIT).map((component) => ({ id: component.id, name: component.name, detail: component.type })),
    ];
  }, [components, text]);
  const matchCount = choices.length - 1;

  const pick = (choice: Choice) => {
    onChange(choice.id);
    setOpen(false);
    setText('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    handleComboboxKey(event, {
      open,
      setOpen,
      items: choices,
      active,
      setActive,
      onPick: pick,
      onClose: () => {
        setOpen(false);
        setText('');
      },
    });

  const optionId = (index: number) => `${listId}-option-${index}`;
  // A chosen id the list does not hold (an old link) is still shown, so the user sees what the URL asks for.
  const shownValue = open ? text : (chosen?.name ?? value ?? '');
  return (
    <div className="relative w-full sm:w-72">
      <input
        type="text"
        role="combobox"
        aria-label="Component"
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && choices[active] !== undefined ? optionId(active) : undefined}
        disabled={disabled || isLoading}
        placeholder={isLoading ? 'Loading components…' : 'Select a component'}
        value={shownValue}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setText('');
        }}
        onKeyDown={handleKeyDown}
        className="h-8 w-full rounded-md bg-white pr-8 pl-2.5 text-sm text-gray-800 ring-1 ring-gray-300 ring-inset placeholder:text-gray-400 focus:outline-2 focus:outline-blue-500 disabled:bg-gray-50"
      />
      <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-2 right-2 size-4 text-gray-400" />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Components"
          className="absolute z-50 mt-1 max-h-72 w-full min-w-64 overflow-auto rounded-md bg-white p-1 text-sm shadow-lg ring-1 ring-gray-200"
        >
          {choices.map((choice, index) => (
            <li
              key={choice.id ?? 'none'}
              id={optionId(index)}
              role="option"
              aria-selected={choice.id === value}
              // Keeps the input focused, so its blur does not close the list before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(choice)}
              onMouseEnter={() => setActive(index)}
              className={clsx('flex cursor-pointer items-center gap-2 rounded px-2 py-1.5', index === active && 'bg-blue-50')}
            >
              <span className={clsx('min-w-0 truncate', choice.id === null ? 'text-gray-500 italic' : 'text-gray-900')}>{choice.name}</span>
              {choice.detail !== null && <span className="ml-auto shrink-0 text-xs text-gray-500">{choice.detail}</span>}
            </li>
          ))}
          {matchCount === 0 && text.trim() !== '' && (
            <li role="presentation" className="px-2 py-1.5 text-gray-500">
              No component matches
            </li>
          )}
          {matchCount >= COMPONENT_PICKER_LIMIT && (
            <li role="presentation" className="px-2 py-1 text-xs text-gray-500">
              Showing the first {COMPONENT_PICKER_LIMIT} matches; type to narrow
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
