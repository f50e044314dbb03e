import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryError } from '@/components/status/query-error';

export interface SectionQueryProps<TRow> {
  query: UseQueryResult<TRow[]>;
  /** What failed to load, e.g. 'Incidents'. */
  subject: string;
  emptyText: string;
  children: (rows: TRow[]) => ReactNode;
}

/** One panel section's request: a loading line, the error with a retry, the empty text, or the rows. */
export function SectionQuery<TRow>({ query, subject, emptyText, children }: SectionQueryProps<TRow>) {
  if (query.isPending) {
    return (
      <p role="status" aria-busy="true" className="py-2 text-sm text-gray-500">
        Loading…
      </p>
    );
  }
  if (query.isError) return <QueryError subject={subject} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="py-2 text-sm text-gray-500">{emptyText}</p>;
  return <>{children(query.data)}</>;
}

/** The list rows of a section share one look. */
export const SECTION_LIST_CLASS = 'flex flex-col divide-y divide-gray-100';
export const SECTION_ROW_CLASS = 'flex min-w-0 items-center gap-2 py-1.5 text-sm';
export const SECTION_LINK_CLASS = 'min-w-0 truncate text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500';
