import { useId, useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { toastError } from '@/components/toast/toast';
import { DURATION_FILTER_ALL, DURATION_FILTER_ERROR, DURATION_FILTER_OPTIONS, parseDurationFilter } from '../utils/duration-filter';

export interface DurationFilterInputProps {
  /** Called with the minimum duration in ms, or null for All, when a valid value is applied. */
  onChange: (minDurationMs: number | null) => void;
}

/**
 * The history's duration filter (spec 001 §5): All, 100ms, 500ms, 1s, 5s, 10s, 30s, or a value the user types,
 * which joins the list once accepted. A value is applied with Enter, on leaving the field, or by picking it.
 */
export function DurationFilterInput({ onChange }: DurationFilterInputProps) {
  const listId = useId();
  const errorId = useId();
  const [text, setText] = useState<string>(DURATION_FILTER_ALL);
  const [applied, setApplied] = useState<string>(DURATION_FILTER_ALL);
  const [custom, setCustom] = useState<string[]>([]);
  const [invalid, setInvalid] = useState(false);
  const options = [...DURATION_FILTER_OPTIONS, ...custom];

  const apply = (value: string) => {
    const trimmed = value.trim();
    if (trimmed === applied) return;
    const result = parseDurationFilter(trimmed === '' ? DURATION_FILTER_ALL : trimmed);
    if (!result.valid) {
      setInvalid(true);
      toastError(DURATION_FILTER_ERROR);
      return;
    }
    const accepted = trimmed === '' ? DURATION_FILTER_ALL : trimmed;
    setInvalid(false);
    setText(accepted);
    setApplied(accepted);
    if (!options.includes(accepted)) setCustom((current) => [...current, accepted]);
    onChange(result.minDurationMs);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(text);
  };

  const handleInput = (value: string) => {
    setText(value);
    setInvalid(false);
    // Picking from the list fills the field in one step; apply it at once like a select would.
    if (options.includes(value)) apply(value);
  };

  return (
    <form onSubmit={handleSubmit} className="flex items-center gap-1.5 text-sm text-gray-700">
      <label className="flex items-center gap-1.5">
        Duration
        <input
          type="text"
          list={listId}
          value={text}
          onChange={(event) => handleInput(event.target.value)}
          onBlur={() => apply(text)}
          onFocus={(event) => event.target.select()}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          className={clsx('h-8 w-28 rounded-md bg-white px-2 ring-1 ring-inset', invalid ? 'ring-red-400' : 'ring-gray-300')}
        />
      </label>
      <datalist id={listId}>
        {options.map((option) => (
          <option key={option} value={option} />
        ))}
      </datalist>
      {invalid && (
        <span id={errorId} className="text-xs text-red-600">
          {DURATION_FILTER_ERROR}
        </span>
      )}
    </form>
  );
}
