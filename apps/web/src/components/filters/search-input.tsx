import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { clsx } from 'clsx';
import { Search } from 'lucide-react';
import { DEBOUNCE_MS } from '@opsdeck/shared';

export interface SearchInputProps {
  value: string;
  /** Called once typing has paused for `debounceMs`. */
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
  debounceMs?: number;
  className?: string;
}

export function SearchInput({ value, onChange, placeholder = 'Search', label, debounceMs = DEBOUNCE_MS.search, className }: SearchInputProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onChangeRef = useRef(onChange);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // An outside change (e.g. navigating back) replaces what was typed.
  useEffect(() => {
    setText(value);
  }, [value]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.target.value;
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChangeRef.current(next), debounceMs);
  };

  return (
    <label className={clsx('relative inline-flex items-center', className)}>
      <Search aria-hidden="true" className="pointer-events-none absolute left-2 size-4 text-gray-400" />
      <input
        type="search"
        value={text}
        onChange={handleChange}
        placeholder={placeholder}
        aria-label={label ?? placeholder}
        className="h-8 w-64 rounded-md bg-white pr-2 pl-8 text-sm ring-1 ring-gray-300 ring-inset focus:outline-2 focus:outline-blue-500"
      />
    </label>
  );
}
