import { useMemo } from 'react';
import { Link } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { PLAYBOOK_RUNS_CONFIG_PAGE_SIZE, formatDate, formatRelativeTime } from '@opsdeck/shared';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { PlaybooksMenuSlot, playbookRunPath } from '@/lib/playbook-run/playbook-run-slot';
import { useSearchUpdate } from '../../utils/use-search-update';
import { PLAYBOOK_RUNS_MAX_PAGE_SIZE, useConfigPlaybookRunsQuery, type ConfigPlaybookRun } from '../api/get-config-playbook-runs';

const PAGE_PARAM = 'runsPage';
const PAGE_SIZE_PARAM = 'runsPageSize';

function positiveInt(text: string | null): number | null {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : null;
}

/** `1m 05s`, `2h 03m`; a run still going counts to now. */
export function formatRunDuration(run: Pick<ConfigPlaybookRun, 'start_time' | 'end_time'>, now: number = Date.now()): string {
  if (run.start_time === null) return '';
  const end = run.end_time === null ? now : Date.parse(run.end_time);
  const seconds = Math.max(0, Math.round((end - Date.parse(run.start_time)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const STATUS_CLASSES: Readonly<Record<string, string>> = {
  completed: 'bg-green-50 text-green-700 ring-green-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  cancelled: 'bg-gray-100 text-gray-600 ring-gray-200',
  running: 'bg-blue-50 text-blue-700 ring-blue-200',
  waiting: 'bg-amber-50 text-amber-800 ring-amber-200',
  scheduled: 'bg-amber-50 text-amber-800 ring-amber-200',
};

/** A run's status as a badge, coloured by outcome (pending and unknown ones grey). */
function RunStatusBadge({ status }: { status: string }) {
  return (
    <span className={clsx('inline-flex rounded-full px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset', STATUS_CLASSES[status] ?? 'bg-gray-50 text-gray-700 ring-gray-200')}>
      {status}
    </span>
  );
}

function columns(names: ReadonlyMap<string, string>): ColumnDef<ConfigPlaybookRun>[] {
  return [
    {
      id: 'playbook',
      header: 'Playbook',
      size: 220,
      cell: ({ row }) => (
        <Link to={playbookRunPath(row.original.id)} className="font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500">
          {row.original.playbook?.title ?? row.original.playbook?.name ?? 'Playbook run'}
        </Link>
      ),
    },
    { id: 'status', header: 'Status', size: 110, cell: ({ row }) => <RunStatusBadge status={row.original.status} /> },
    {
      id: 'start_time',
      header: 'Started',
      size: 130,
      cell: ({ row }) => {
        const at = row.original.start_time ?? row.original.scheduled_time;
        return (
          <time dateTime={at} title={formatDate(at)}>
            {formatRelativeTime(at)} ago
          </time>
        );
      },
    },
    { id: 'duration', header: 'Duration', size: 100, cell: ({ row }) => formatRunDuration(row.original) },
    { id: 'created_by', header: 'Created by', size: 150, cell: ({ row }) => (row.original.created_by === null ? '' : (names.get(row.original.created_by) ?? '')) },
  ];
}

const LAYOUT: DataTableLayout = { grow: 'playbook', hideBelow: { duration: 520, created_by: 680 } };

/**
 * The Playbooks tab: a Run button offering the playbooks that run on this item, and its runs newest first, 200 to a
 * page (spec 001 §2.5, §9), each linking to its run page.
 */
export function ConfigPlaybooksTab({ configId }: { configId: string }) {
  const [search, update] = useSearchUpdate();
  const pageIndex = (positiveInt(search.get(PAGE_PARAM)) ?? 1) - 1;
  const pageSize = Math.min(positiveInt(search.get(PAGE_SIZE_PARAM)) ?? PLAYBOOK_RUNS_CONFIG_PAGE_SIZE, PLAYBOOK_RUNS_MAX_PAGE_SIZE);
  const runs = useConfigPlaybookRunsQuery(configId, pageIndex, pageSize);
  const creatorIds = useMemo(() => [...new Set((runs.data?.rows ?? []).flatMap((run) => (run.created_by ? [run.created_by] : [])))].sort(), [runs.data]);
  const creators = usePeopleByIdsQuery(creatorIds);
  const tableColumns = useMemo(() => columns(new Map((creators.data ?? []).map((person) => [person.id, person.name]))), [creators.data]);

  if (runs.isError) return <QueryError subject="Playbook runs" error={runs.error} onRetry={() => void runs.refetch()} />;
  return (
    <div className="flex min-h-0 flex-col gap-2">
      <div className="flex justify-end">
        <PlaybooksMenuSlot variant="button" target={{ type: 'config', id: configId }} />
      </div>
      <DataTable
        label="Playbook runs"
        columns={tableColumns}
        data={runs.data?.rows ?? []}
        isLoading={runs.isPending}
        emptyText="No playbook runs"
        getRowId={(run) => run.id}
        pagination={{
          pageIndex,
          pageSize,
          totalCount: runs.data?.totalCount ?? 0,
          onPaginationChange: (next) =>
            update({
              [PAGE_PARAM]: next.pageIndex === 0 ? null : String(next.pageIndex + 1),
              [PAGE_SIZE_PARAM]: next.pageSize === PLAYBOOK_RUNS_CONFIG_PAGE_SIZE ? null : String(next.pageSize),
            }),
        }}
        layout={LAYOUT}
      />
    </div>
  );
}
