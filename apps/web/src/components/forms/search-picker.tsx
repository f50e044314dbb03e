import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { clsx } from 'clsx';
import { Check, Search } from 'lucide-react';
import { QueryError } from '@/components/status/query-error';
import { inputClass } from './styles';

export interface SearchPickerOption {
  id: string;
  /** What the option reads as, and its accessible name. */
  label: string;
}

export interface SearchPickerProps {
  /** The input's id, for a `<label htmlFor>` around it. */
  id: string;
  /** Names the list of matches, e.g. 'Matching users'. */
  listLabel: string;
  /** What is typed; the caller debounces it into the search it asks the server for. */
  text: string;
  onTextChange: (text: string) => void;
  /** The matches of the latest answer, in order. */
  options: readonly SearchPickerOption[];
  /** True while the typed text has no answer yet (typing, waiting for the debounce, or asking the server). */
  isSearching: boolean;
  /** The failure of the latest search, or null. */
  error?: unknown;
  /** Says what failed, before the server's message ('Users could not be loaded: …'). */
  errorSubject?: string;
  onRetry?: () => void;
  /** Shown under an empty input. */
  promptText?: string;
  /** Shown when the server found nothing for the typed text, e.g. 'No matching users'. */
  emptyText: string;
  /** The server stopped at its limit: more would match, so typing more narrows the list. */
  limitReached?: boolean;
  /** Options marked as chosen (aria-selected and a check). */
  selectedIds?: ReadonlySet<string>;
  onPick: (option: SearchPickerOption) => void;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  required?: boolean;
  describedBy?: string;
  maxLength?: number;
  autoFocus?: boolean;
}

const STATUS_CLASS = 'px-1 text-sm text-gray-500';

/**
 * A search box with its matches listed right under it (the ARIA combobox pattern with an inline listbox): the caller
 * asks the server for what is typed, so the list never holds more than one answer. The arrows move through the
 * matches, Enter picks the active one, a click or tap picks any. Inline rather than a popup, so that inside a
 * scrolling dialog body the list is never cut off and stays usable on a phone.
 */
export function SearchPicker({
  id,
  listLabel,
  text,
  onTextChange,
  options,
  isSearching,
  error = null,
  errorSubject,
  onRetry,
  promptText = 'Type to search',
  emptyText,
  limitReached = false,
  selectedIds,
  onPick,
  placeholder = 'Search by name or email',
  disabled = false,
  invalid = false,
  required = false,
  describedBy,
  maxLength = 200,
  autoFocus = false,
}: SearchPickerProps) {
  const listId = useId();
  const statusId = useId();
  const [active, setActive] = useState(0);
  const hasText = text.trim() !== '';
  const failed = hasText && error !== null && error !== undefined;
  const showList = hasText && !failed && options.length > 0;
  const activeIndex = showList ? Math.min(active, options.length - 1) : -1;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (activeIndex < 0) return;
    // jsdom has no scrollIntoView.
    document.getElementById(`${listId}-option-${activeIndex}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIndex, listId]);

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!showList) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      // Picks instead of submitting the form around the picker.
      event.preventDefault();
      const option = options[activeIndex];
      if (option !== undefined) onPick(option);
    }
  };

  let status: string | null = null;
  if (!hasText) status = promptText;
  else if (!failed && options.length === 0) status = isSearching ? 'Searching…' : emptyText;
  else if (showList && limitReached) status = 'Only the first matches are shown; type more to narrow the list';

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div className="relative flex items-center">
        <Search aria-hidden="true" className="pointer-events-none absolute left-2.5 size-4 text-gray-400" />
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          maxLength={maxLength}
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          aria-describedby={[statusId, describedBy].filter(Boolean).join(' ')}
          aria-busy={(hasText && isSearching) || undefined}
          disabled={disabled}
          autoFocus={autoFocus}
          placeholder={placeholder}
          value={text}
          onChange={(event) => {
            setActive(0);
            onTextChange(event.target.value);
          }}
          onKeyDown={handleKeyDown}
          className={inputClass(invalid, 'pl-8')}
        />
      </div>
      {failed && <QueryError subject={errorSubject} error={error} onRetry={onRetry} />}
      <ul
        id={listId}
        role="listbox"
        aria-label={listLabel}
        hidden={!showList}
        className={clsx(
          'max-h-60 overflow-auto rounded-md bg-white p-1 text-sm ring-1 ring-gray-200',
          isSearching && 'opacity-60 transition-opacity',
        )}
      >
        {showList &&
          options.map((option, index) => {
            const selected = selectedIds?.has(option.id) ?? false;
            return (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={selected}
                // Keeps the input focused, so typing can go on after a pick.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  if (!disabled) onPick(option);
                }}
                onMouseEnter={() => setActive(index)}
                className={clsx(
                  'flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-gray-900 sm:py-1.5',
                  index === activeIndex && 'bg-blue-50',
                  disabled && 'cursor-not-allowed opacity-60',
                )}
              >
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{option.label}</span>
                {selected && <Check aria-hidden="true" className="size-4 shrink-0 text-blue-600" />}
              </li>
            );
          })}
      </ul>
      <p id={statusId} role="status" className={clsx(STATUS_CLASS, status === null && 'sr-only')}>
        {status ?? `${options.length} ${options.length === 1 ? 'match' : 'matches'}`}
      </p>
    </div>
  );
}
