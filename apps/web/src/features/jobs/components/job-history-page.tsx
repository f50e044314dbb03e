import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { relativeRangeLabel, type TimeRange } from '@opsdeck/shared';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Pagination } from '@/components/data-table/pagination';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker, type RelativeRangeOption } from '@/components/time-range/time-range-picker';
import { SettingsPageHeader } from '@/components/settings-page-header/settings-page-header';
import { hasJobDetails, jobResourcePath } from '@/lib/job-history/job-details';
import { JobDetailsDialog } from '@/lib/job-history/job-details-dialog';
import { jobNameColumn, jobRunColumns } from '@/lib/job-history/job-history-columns';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useJobHistoriesQuery } from '../api/get-job-histories';
import { useJobHistoryNamesQuery } from '../api/get-job-history-names';
import {
  ALL_STATUSES,
  DEFAULT_JOB_SORT,
  JOB_HISTORY_PAGE_SIZES,
  JOB_HISTORY_RELATIVE_RANGES,
  JOB_RESOURCE_TYPES,
  JOB_SORT_COLUMNS,
  JOB_STATUS_FILTERS,
  RUN_DURATION_KEYS,
  parseJobHistoryParams,
  serializeJobHistoryParams,
  type JobHistoryParams,
} from '../job-history-params';

const ANY = 'any';
const STATUS_OPTIONS: DropdownOption[] = [{ value: ALL_STATUSES, label: 'All' }, ...JOB_STATUS_FILTERS.map((status) => ({ value: status, label: status }))];
const RESOURCE_TYPE_OPTIONS: DropdownOption[] = [{ value: ANY, label: 'All' }, ...JOB_RESOURCE_TYPES.map((type) => ({ value: type, label: type }))];
const DURATION_OPTIONS: DropdownOption[] = [{ value: ANY, label: 'None' }, ...RUN_DURATION_KEYS.map((key) => ({ value: key, label: `≥ ${key}` }))];

/** Spec 001 §9's lengths as written, so 24h stays 'Last 24 hours' and 6M six calendar months rather than nearby keys. */
const RELATIVE_RANGES: readonly RelativeRangeOption[] = JOB_HISTORY_RELATIVE_RANGES.map((length) => ({
  range: { type: 'relative', range: `now-${length}` },
  label: relativeRangeLabel(length),
}));

/** On a phone the name, status and failed count stay; the rest shows once there is room. */
const LAYOUT: DataTableLayout = {
  grow: 'resource_name',
  hideBelow: { agent: 1200, time_start: 1000, success_count: 700, created_at: 860, duration_millis: 560, resource_name: 480 },
};

function ResourceCell({ entry }: { entry: JobHistoryEntry }) {
  if (!entry.resource_type) return null;
  const path = jobResourcePath(entry.resource_type, entry.resource_id);
  const name = entry.resource_name ?? entry.resource_id ?? '';
  return (
    <span className="flex min-w-0 flex-col">
      {path === null || name === '' ? (
        <span className="truncate">{name}</span>
      ) : (
        <Link
          to={path}
          // The row opens the run's details; the link opens the resource instead.
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
          className="truncate text-blue-700 hover:underline"
        >
          {name}
        </Link>
      )}
      <span className="text-xs text-gray-500">{entry.resource_type}</span>
    </span>
  );
}

const columns: ColumnDef<JobHistoryEntry>[] = [
  jobNameColumn,
  { id: 'resource_name', accessorKey: 'resource_name', header: 'Resource', size: 220, cell: ({ row }) => <ResourceCell entry={row.original} /> },
  { id: 'agent', header: 'Agent', size: 140, cell: ({ row }) => row.original.agent?.name ?? '' },
  ...jobRunColumns,
];

function isSortColumn(value: string): value is JobHistoryParams['sortBy'] {
  return (JOB_SORT_COLUMNS as readonly string[]).includes(value);
}

function FilterField({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="flex items-center gap-1.5 text-sm text-gray-700">
      {label}
      {children}
    </label>
  );
}

/** /settings/jobs: every background run, filtered, sorted and paged by the server from the URL (spec 001 §2.7, §9). */
export function JobHistoryPage() {
  useDocumentTitle('Job History');
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseJobHistoryParams(search), [search]);
  const histories = useJobHistoriesQuery(params);
  const names = useJobHistoryNamesQuery();
  const [selected, setSelected] = useState<JobHistoryEntry | null>(null);

  const nameOptions = useMemo<DropdownOption[]>(() => {
    const known = names.data ?? [];
    // A name from a link stays selectable even when no run of it is left.
    const all = params.name !== null && !known.includes(params.name) ? [params.name, ...known] : known;
    return [{ value: ANY, label: 'All' }, ...all.map((name) => ({ value: name, label: name }))];
  }, [names.data, params.name]);

  const update = (changes: Partial<JobHistoryParams>) =>
    // A new filter, sort or page size shows the first page; only paging itself keeps its index.
    setSearch(serializeJobHistoryParams({ ...params, pageIndex: 0, ...changes }), { replace: true });

  const sorting: SortingState = [{ id: params.sortBy, desc: params.sortOrder === 'desc' }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    update({ sortBy: first && isSortColumn(first.id) ? first.id : DEFAULT_JOB_SORT, sortOrder: first && !first.desc ? 'asc' : 'desc' });
  };

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <SettingsPageHeader title="Job History" onRefresh={() => void histories.refetch()} refreshing={histories.isFetching}>
        <TimeRangePicker value={params.timeRange} relativeRanges={RELATIVE_RANGES} onChange={(timeRange: TimeRange) => update({ timeRange })} />
      </SettingsPageHeader>
      <FilterBar>
        <FilterField label="Name">
          <Dropdown label="Name" options={nameOptions} value={params.name ?? ANY} onChange={(value) => update({ name: value === ANY ? null : value })} />
        </FilterField>
        <FilterField label="Resource type">
          <Dropdown
            label="Resource type"
            options={RESOURCE_TYPE_OPTIONS}
            value={params.resourceType ?? ANY}
            onChange={(value) => update({ resourceType: value === ANY ? null : value })}
          />
        </FilterField>
        <FilterField label="Status">
          <Dropdown
            label="Status"
            options={STATUS_OPTIONS}
            value={params.status ?? ALL_STATUSES}
            onChange={(value) => update({ status: JOB_STATUS_FILTERS.find((status) => status === value) ?? null })}
          />
        </FilterField>
        <FilterField label="Run duration">
          <Dropdown
            label="Run duration"
            options={DURATION_OPTIONS}
            value={params.runDuration ?? ANY}
            onChange={(value) => update({ runDuration: RUN_DURATION_KEYS.find((key) => key === value) ?? null })}
          />
        </FilterField>
      </FilterBar>
      {histories.isError ? (
        <QueryError subject="Job history" error={histories.error} onRetry={() => void histories.refetch()} />
      ) : (
        <DataTable
          label="Job history"
          columns={columns}
          data={histories.data?.rows ?? []}
          isLoading={histories.isPending}
          emptyText="No job runs match these filters"
          getRowId={(entry) => entry.id}
          onRowClick={setSelected}
          // Spec 001 §2.7: a run without errors, scrape summary or summary has nothing for the modal to show.
          isRowClickable={(entry) => hasJobDetails(entry.details)}
          sorting={{ sorting, onSortingChange: handleSortingChange }}
          layout={LAYOUT}
        />
      )}
      {!histories.isError && (
        <Pagination
          pageIndex={params.pageIndex}
          pageSize={params.pageSize}
          totalCount={histories.data?.totalCount ?? null}
          pageSizeOptions={JOB_HISTORY_PAGE_SIZES}
          onPageChange={(pageIndex) => update({ pageIndex })}
          onPageSizeChange={(pageSize) => update({ pageSize })}
        />
      )}
      {selected && <JobDetailsDialog entry={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}
