import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { formatDate, formatDuration } from '@opsdeck/shared';
import { DataTable } from '@/components/data-table/data-table';
import { JobStatusText } from '@/components/job-status/job-status-cell';
import { QueryError } from '@/components/status/query-error';
import { useScraperJobsQuery } from '../api/get-scraper-jobs';
import { scrapeSummaryOf, type ScraperJob } from '../api/types';
import { ScrapeSummaryView, summaryLine } from './scrape-summary';

/** Errors a run left outside its summary (a run that failed before it had one). */
function detailErrors(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('errors' in details) || !Array.isArray(details.errors)) return [];
  return details.errors.map((error: unknown) => (typeof error === 'string' ? error : JSON.stringify(error)));
}

const columns: ColumnDef<ScraperJob>[] = [
  {
    id: 'expand',
    header: () => <span className="sr-only">Details</span>,
    size: 44,
    cell: ({ row }) => (
      <button
        type="button"
        aria-expanded={row.getIsExpanded()}
        aria-label={`${row.getIsExpanded() ? 'Hide' : 'Show'} details of the run started ${formatDate(row.original.time_start ?? row.original.created_at)}`}
        onClick={row.getToggleExpandedHandler()}
        className="rounded p-0.5 text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {row.getIsExpanded() ? <ChevronDown aria-hidden="true" className="size-4" /> : <ChevronRight aria-hidden="true" className="size-4" />}
      </button>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    size: 100,
    cell: ({ row }) => <JobStatusText status={row.original.status} />,
  },
  { id: 'time_start', header: 'Started', size: 160, cell: ({ row }) => formatDate(row.original.time_start ?? row.original.created_at) },
  {
    id: 'duration',
    header: 'Duration',
    size: 100,
    cell: ({ row }) => (row.original.duration_millis === null ? '' : formatDuration(row.original.duration_millis)),
  },
  {
    id: 'summary',
    header: 'Summary',
    size: 260,
    cell: ({ row }) => {
      const summary = scrapeSummaryOf(row.original.details);
      return summary === null ? detailErrors(row.original.details).join('; ') : summaryLine(summary);
    },
  },
  { id: 'success_count', header: 'Items', accessorKey: 'success_count', size: 80 },
  { id: 'error_count', header: 'Errors', accessorKey: 'error_count', size: 80 },
];

function JobDetails({ job }: { job: ScraperJob }) {
  const summary = scrapeSummaryOf(job.details);
  if (summary !== null) return <ScrapeSummaryView summary={summary} />;
  const errors = detailErrors(job.details);
  if (errors.length === 0) return <p className="text-sm text-gray-500">This run left no summary.</p>;
  return (
    <ul className="flex flex-col gap-1 whitespace-normal">
      {errors.map((error, index) => (
        <li key={index} className="rounded bg-red-50 px-2 py-1 text-xs break-words text-red-800">
          {error}
        </li>
      ))}
    </ul>
  );
}

export interface ScraperJobsTabProps {
  scraperId: string;
  /** Set after Run Now: the newest job id at that moment (null for none), so the tab polls until the run ends. */
  awaitingRunAfter?: string | null;
}

/** The scraper's runs, newest first, each expandable to what it did per config type and the errors it met. */
export function ScraperJobsTab({ scraperId, awaitingRunAfter }: ScraperJobsTabProps) {
  const jobs = useScraperJobsQuery(scraperId, awaitingRunAfter);
  const layout = useMemo(() => ({ grow: 'summary', hideBelow: { duration: 640, success_count: 520, error_count: 520 } }), []);
  if (jobs.isError) {
    return <QueryError subject="Job history" error={jobs.error} onRetry={() => void jobs.refetch()} />;
  }
  return (
    <DataTable
      label="Job history"
      columns={columns}
      data={jobs.data ?? []}
      isLoading={jobs.isPending}
      emptyText="No job history found"
      getRowId={(job) => job.id}
      renderExpandedRow={(row) => <JobDetails job={row.original} />}
      layout={layout}
    />
  );
}
