import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';

/** The arrow beside a sortable header: the current direction, or a faint both-ways arrow while unsorted. */
export function SortIcon({ sorted }: { sorted: 'asc' | 'desc' | false | null }) {
  if (sorted === 'asc') return <ArrowUp aria-hidden="true" className="size-3" />;
  if (sorted === 'desc') return <ArrowDown aria-hidden="true" className="size-3" />;
  return <ArrowUpDown aria-hidden="true" className="size-3 text-gray-300" />;
}
