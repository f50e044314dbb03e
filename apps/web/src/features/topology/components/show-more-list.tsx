import { useState, type ReactNode } from 'react';
import { TOPOLOGY_LIST_MAX_HEIGHT_PX } from '@opsdeck/shared';

export interface ShowMoreListProps<T> {
  items: readonly T[];
  /** How many items show before 'Show more' (spec 001 §9). */
  limit: number;
  label: string;
  renderItem: (item: T) => ReactNode;
  itemKey: (item: T) => string;
  className?: string;
}

/** A list cut at `limit` items with a 'Show more' toggle; once expanded it scrolls within 200 px. */
export function ShowMoreList<T>({ items, limit, label, renderItem, itemKey, className }: ShowMoreListProps<T>) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? items : items.slice(0, limit);
  const hidden = items.length - limit;
  return (
    <div className={className}>
      <ul aria-label={label} className="flex flex-col gap-1 overflow-y-auto" style={{ maxHeight: TOPOLOGY_LIST_MAX_HEIGHT_PX }}>
        {shown.map((item) => (
          <li key={itemKey(item)} className="min-w-0">
            {renderItem(item)}
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          aria-expanded={expanded}
          className="mt-1 rounded text-xs font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : `Show more (${hidden})`}
        </button>
      )}
    </div>
  );
}
