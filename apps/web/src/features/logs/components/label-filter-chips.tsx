import { X } from 'lucide-react';
import { Button } from '@/components/button/button';
import type { LabelFilter } from '../utils/label-filters';

export interface LabelFilterChipsProps {
  filters: readonly LabelFilter[];
  onRemove: (filter: LabelFilter) => void;
  onClear: () => void;
}

/** The labels the lines are narrowed to, each removable, above the table. */
export function LabelFilterChips({ filters, onRemove, onClear }: LabelFilterChipsProps) {
  if (filters.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-gray-600">Label filters:</span>
      <ul aria-label="Label filters" className="flex flex-wrap gap-1.5">
        {filters.map((filter) => (
          <li key={`${filter.key}=${filter.value}`} className="inline-flex max-w-full items-center gap-1 rounded-full bg-blue-50 py-0.5 pr-1 pl-2.5 font-mono text-xs text-blue-800 ring-1 ring-blue-200">
            <span className="truncate">
              {filter.key}={filter.value}
            </span>
            <button
              type="button"
              aria-label={`Remove filter ${filter.key}=${filter.value}`}
              onClick={() => onRemove(filter)}
              className="inline-flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              <X aria-hidden="true" className="size-3" />
            </button>
          </li>
        ))}
      </ul>
      <Button variant="ghost" className="px-2 py-1 text-xs" onClick={onClear}>
        Clear label filters
      </Button>
    </div>
  );
}
