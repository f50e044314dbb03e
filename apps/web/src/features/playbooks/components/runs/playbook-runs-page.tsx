import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { RefreshCw } from 'lucide-react';
import { FILTER_ALL, PLAYBOOK_RUN_STATUSES, PLAYBOOK_RUNS_PAGE_SIZE, formatDate, formatRelativeTime, type PlaybookTargetType, type TimeRange } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { playbookRunPath } from '@/lib/playbook-run/playbook-run-slot';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePlaybookOptionsQuery, usePlaybookRunsQuery, useRunTargetNamesQuery, type PlaybookRunRow } from '../../api/get-playbook-runs';
import { RunStatusBadge, runStatusLabel } from './run-status-badge';
import { runTargetOf, runTargetPath } from './run-target';
import { runDuration } from './run-times';
import { RunsBreadcrumb } from './runs-breadcrumb';
import { parseRunsParams, pickerTimeRange, runsTimeRangeParams } from './runs-params';

const ALL_OPTION: DropdownOption = { value: FILTER_ALL, label: 'All' };
const STATUS_OPTIONS: DropdownOption[] = [ALL_OPTION, ...PLAYBOOK_RUN_STATUSES.map((status) => ({ value: status, label: runStatusLabel(status) }))];

/** On a phone the playbook, status and resource stay; the rest shows once there is room. */
const LAYOUT: DataTableLayout = { grow: 'playbook', hideBelow: { started: 560, duration: 700, created_by: 860 } };

/** The target ids of the visible rows by type, sorted so the lookups' keys stay put when rows only reorder. */
function targetIds(rows: readonly PlaybookRunRow[]): Record<PlaybookTargetType, string[]> {
  const ids: Record<PlaybookTargetType, Set<string>> = { config: new Set(), component: new Set(), check: new Set() };
  for (const row of rows) {
    const target = runTargetOf(row);
    if (target !== null) ids[target.type].add(target.id);
  }
  return { config: [...ids.config].sort(), component: [...ids.component].sort(), check: [...ids.check].sort() };
}

function toMap(entries: readonly { id: string; name: string }[] | undefined): Map<string, string> {
  return new Map((entries ?? []).map((entry) => [entry.id, entry.name]));
}

interface Lookups {
  targetNames: ReadonlyMap<string, string>;
  people: ReadonlyMap<string, string>;
}

function ResourceCell({ row, names }: { row: PlaybookRunRow; names: ReadonlyMap<string, string> }) {
  const target = runTargetOf(row);
  if (target === null) return null;
  return (
    <Link
      to={runTargetPath(target)}
      // The row opens the run; the link opens the resource instead.
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      className="text-blue-700 hover:underline"
    >
      {names.get(target.id) ?? target.id}
    </Link>
  );
}

function columns({ targetNames, people }: Lookups): ColumnDef<PlaybookRunRow>[] {
  return [
    {
      id: 'playbook',
      header: 'Playbook',
      size: 240,
      cell: ({ row }) => <span className="font-medium">{row.original.playbooks?.title ?? row.original.playbooks?.name ?? row.original.playbook_id}</span>,
    },
    { id: 'status', header: 'Status', size: 120, cell: ({ row }) => <RunStatusBadge status={row.original.status} /> },
    { id: 'resource', header: 'Resource', size: 200, cell: ({ row }) => <ResourceCell row={row.original} names={targetNames} /> },
    {
      id: 'started',
      header: 'Started',
      size: 120,
      cell: ({ row }) => {
        const at = row.original.start_time;
        return at === null ? null : (
          <time dateTime={at} title={formatDate(at, 'datetime-seconds')}>
            {formatRelativeTime(at)} ago
          </time>
        );
      },
    },
    { id: 'duration', header: 'Duration', size: 100, cell: ({ row }) => runDuration(row.original.start_time, row.original.end_time) },
    {
      id: 'created_by',
      header: 'Triggered By',
      size: 160,
      cell: ({ row }) => (row.original.created_by === null ? '' : (people.get(row.original.created_by) ?? '')),
    },
  ];
}

/** /playbooks/runs: every playbook run, newest first, filtered by playbook, status and time range from the URL (spec 001 §2.5). */
export function PlaybookRunsPage() {
  useDocumentTitle('Playbook Runs');
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseRunsParams(search), [search]);
  const runs = usePlaybookRunsQuery(params);
  const playbooks = usePlaybookOptionsQuery();

  const rows = useMemo(() => runs.data?.rows ?? [], [runs.data]);
  const ids = useMemo(() => targetIds(rows), [rows]);
  const configNames = useRunTargetNamesQuery('config', ids.config);
  const componentNames = useRunTargetNamesQuery('component', ids.component);
  const checkNames = useRunTargetNamesQuery('check', ids.check);
  const creatorIds = useMemo(() => [...new Set(rows.flatMap((row) => (row.created_by === null ? [] : [row.created_by])))].sort(), [rows]);
  const creators = usePeopleByIdsQuery(creatorIds);

  const tableColumns = useMemo(
    () =>
      columns({
        targetNames: new Map([...toMap(configNames.data), ...toMap(componentNames.data), ...toMap(checkNames.data)]),
        people: toMap(creators.data),
      }),
    [configNames.data, componentNames.data, checkNames.data, creators.data],
  );

  const playbookOptions = useMemo<DropdownOption[]>(
    () => [ALL_OPTION, ...(playbooks.data ?? []).map((playbook) => ({ value: playbook.id, label: playbook.title ?? playbook.name }))],
    [playbooks.data],
  );

  const update = (changes: Record<string, string | null>) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: true },
    );

  // A new filter shows its first page.
  const handleFilter = (name: 'playbook' | 'status', value: string) => update({ [name]: value === FILTER_ALL ? null : value, page: null });
  const handleTimeRange = (range: TimeRange) => update({ ...runsTimeRangeParams(range), page: null });

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <RunsBreadcrumb />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void runs.refetch()} disabled={runs.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        <div className="ml-auto">
          <TimeRangePicker value={pickerTimeRange(params.timeRange)} onChange={handleTimeRange} />
        </div>
      </header>
      <FilterBar>
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Playbook
          <Dropdown label="Playbook" options={playbookOptions} value={params.playbookId ?? FILTER_ALL} onChange={(value) => handleFilter('playbook', value)} />
        </label>
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Status
          <Dropdown label="Status" options={STATUS_OPTIONS} value={params.status ?? FILTER_ALL} onChange={(value) => handleFilter('status', value)} />
        </label>
      </FilterBar>
      {runs.isError ? (
        <QueryError subject="Playbook runs" error={runs.error} onRetry={() => void runs.refetch()} />
      ) : (
        <DataTable
          label="Playbook runs"
          columns={tableColumns}
          data={rows}
          isLoading={runs.isPending}
          emptyText="No playbook runs"
          getRowId={(run) => run.id}
          onRowClick={(run) => void navigate(playbookRunPath(run.id))}
          pagination={{
            pageIndex: params.pageIndex,
            pageSize: params.pageSize,
            totalCount: runs.data?.totalCount ?? 0,
            onPaginationChange: (next) =>
              update({
                page: next.pageIndex === 0 ? null : String(next.pageIndex + 1),
                pageSize: next.pageSize === PLAYBOOK_RUNS_PAGE_SIZE ? null : String(next.pageSize),
              }),
          }}
          layout={LAYOUT}
        />
      )}
    </section>
  );
}
