import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { clsx } from 'clsx';
import { ChevronDown } from 'lucide-react';
import { DEBOUNCE_MS } from '@opsdeck/shared';
import { handleComboboxKey } from '@/components/forms/combobox-keys';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { CONFIG_ITEM_OPTIONS_LIMIT, useConfigItemOptionsQuery } from '../api/get-config-items-with-logs';
import { configItemSubject, placeOf, shortType, type LogSubjectKind, type LogSubjectOption } from '../utils/log-subjects';

export interface ComponentPickerProps {
  /** The components some log backend serves; narrowed here as the user types. */
  components: readonly LogSubjectOption[];
  /** The chosen component or item, when known: shown as the value even when no list holds it (an old link). */
  chosen: LogSubjectOption | undefined;
  value: string | null;
  onChange: (id: string | null) => void;
  isLoading: boolean;
  disabled?: boolean;
}

/** The list shows this many components at most; typing narrows it, so a large estate does not mount a long list. */
export const COMPONENT_PICKER_LIMIT = 100;
const NONE_LABEL = 'None';
const KIND_LABELS: Record<LogSubjectKind, string> = { component: 'Component', config: 'Config item' };

type Choice = { id: null } | { id: string; subject: LogSubjectOption };

function matches(subject: LogSubjectOption, needle: string): boolean {
  return needle === '' || subject.name.toLowerCase().includes(needle) || (subject.type ?? '').toLowerCase().includes(needle);
}

/** What the closed input reads: an item's place follows its name, as two items may share one. */
function shownName(subject: LogSubjectOption): string {
  const place = subject.kind === 'config' ? placeOf(subject) : null;
  return place === null ? subject.name : `${subject.name} (${place})`;
}

function GroupHeader({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div id={id} role="presentation" className="px-2 pt-2 pb-1 text-[0.6875rem] font-semibold tracking-wide text-gray-500 uppercase">
      {children}
    </div>
  );
}

function Note({ children }: { children: ReactNode }) {
  return (
    <div role="presentation" className="px-2 py-1 text-xs text-gray-500">
      {children}
    </div>
  );
}

/**
 * A searchable choice of what has logs (the ARIA combobox pattern): the components some log backend serves and,
 * grouped after them, the config items its routes match. Components are all at hand and narrowed as the user types;
 * items are searched on the server (300 ms after typing stops), as an estate may hold 100,000 of them. The arrows move
 * through both groups, Enter picks, Escape closes. 'None' clears the choice.
 */
export function ComponentPicker({ components, chosen, value, onChange, isLoading, disabled = false }: ComponentPickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const searched = useDebouncedValue(text, DEBOUNCE_MS.resourceSearch);
  const items = useConfigItemOptionsQuery(searched, open);

  const needle = text.trim().toLowerCase();
  const componentChoices = useMemo(() => components.filter((component) => matches(component, needle)).slice(0, COMPONENT_PICKER_LIMIT), [components, needle]);
  // The server's answer may be for a shorter text while the debounce runs: it is narrowed to what is typed now.
  const itemChoices = useMemo(() => (items.data ?? []).map(configItemSubject).filter((item) => matches(item, needle)), [items.data, needle]);
  const choices = useMemo<Choice[]>(
    () => [{ id: null }, ...componentChoices.map((subject) => ({ id: subject.id, subject })), ...itemChoices.map((subject) => ({ id: subject.id, subject }))],
    [componentChoices, itemChoices],
  );

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
  const renderOption = (choice: Choice, index: number) => {
    const subject = choice.id === null ? null : choice.subject;
    const place = subject?.kind === 'config' ? placeOf(subject) : null;
    const type = subject?.kind === 'config' ? shortType(subject.type) : (subject?.type ?? null);
    return (
      <div
        key={choice.id ?? 'none'}
        id={optionId(index)}
        role="option"
        aria-selected={choice.id === value}
        // Keeps the input focused, so its blur does not close the list before the click lands.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => pick(choice)}
        onMouseEnter={() => setActive(index)}
        className={clsx('flex cursor-pointer flex-col rounded px-2 py-1.5', index === active && 'bg-blue-50')}
      >
        <span className="flex min-w-0 items-center gap-2">
          <span className={clsx('min-w-0 truncate', subject === null ? 'text-gray-500 italic' : 'text-gray-900')}>{subject?.name ?? NONE_LABEL}</span>
          {type !== null && type !== '' && (
            <span className="ml-auto shrink-0 text-xs text-gray-500" title={subject?.type ?? undefined}>
              {type}
            </span>
          )}
        </span>
        {place !== null && <span className="truncate text-xs text-gray-500">{place}</span>}
      </div>
    );
  };

  const componentsHeader = `${listId}-components`;
  const itemsHeader = `${listId}-items`;
  const searching = items.isFetching && (items.data === undefined || items.isPlaceholderData);
  // A chosen id the lists do not hold (an old link) is still shown, so the user sees what the URL asks for.
  const shownValue = open ? text : chosen === undefined ? (value ?? '') : shownName(chosen);
  return (
    <div className="relative w-full sm:w-80">
      <input
        type="text"
        role="combobox"
        aria-label="Component or config item"
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && choices[active] !== undefined ? optionId(active) : undefined}
        disabled={disabled || isLoading}
        placeholder={isLoading ? 'Loading components…' : 'Select a component or config item'}
        value={shownValue}
        title={chosen === undefined ? undefined : `${KIND_LABELS[chosen.kind]}: ${shownName(chosen)}`}
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
        className={clsx(
          'h-8 w-full rounded-md bg-white pl-2.5 text-sm text-gray-800 ring-1 ring-gray-300 ring-inset placeholder:text-gray-400 focus:outline-2 focus:outline-blue-500 disabled:bg-gray-50',
          !open && chosen !== undefined ? 'pr-24' : 'pr-8',
        )}
      />
      {!open && chosen !== undefined && (
        <span data-testid="subject-kind" className="pointer-events-none absolute top-1.5 right-7 rounded bg-gray-100 px-1.5 py-0.5 text-[0.6875rem] text-gray-600">
          {KIND_LABELS[chosen.kind]}
        </span>
      )}
      <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-2 right-2 size-4 text-gray-400" />
      {open && (
        <div
          id={listId}
          role="listbox"
          aria-label="Components and config items"
          className="absolute z-50 mt-1 max-h-80 w-full min-w-64 overflow-auto rounded-md bg-white p-1 text-sm shadow-lg ring-1 ring-gray-200"
        >
          {choices[0] !== undefined && renderOption(choices[0], 0)}
          <div role="group" aria-labelledby={componentsHeader}>
            <GroupHeader id={componentsHeader}>Components</GroupHeader>
            {componentChoices.map((subject, index) => renderOption({ id: subject.id, subject }, index + 1))}
            {componentChoices.length === 0 && <Note>{needle === '' ? 'No component has logs' : 'No component matches'}</Note>}
            {componentChoices.length >= COMPONENT_PICKER_LIMIT && <Note>Showing the first {COMPONENT_PICKER_LIMIT} components; type to narrow</Note>}
          </div>
          <div role="group" aria-labelledby={itemsHeader} aria-busy={searching}>
            <GroupHeader id={itemsHeader}>Config items</GroupHeader>
            {itemChoices.map((subject, index) => renderOption({ id: subject.id, subject }, index + 1 + componentChoices.length))}
            {items.isError && <Note>Config items could not be loaded</Note>}
            {!items.isError && searching && itemChoices.length === 0 && <Note>Searching config items…</Note>}
            {!items.isError && !searching && itemChoices.length === 0 && <Note>{needle === '' ? 'No config item has logs' : 'No config item matches'}</Note>}
            {(items.data?.length ?? 0) >= CONFIG_ITEM_OPTIONS_LIMIT && <Note>Showing the first {CONFIG_ITEM_OPTIONS_LIMIT} config items; type to narrow</Note>}
          </div>
        </div>
      )}
    </div>
  );
}
