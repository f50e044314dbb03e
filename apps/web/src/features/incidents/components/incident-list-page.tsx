import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import {
  DEFAULT_PAGE_SIZE,
  FILTER_ALL,
  INCIDENT_LIST_DEFAULT_STATUS_FILTER,
  INCIDENT_MESSAGES,
  PAGE_SIZE_OPTIONS,
  RESPONDERS_COLUMN_MAX,
  formatRelativeTime,
} from '@opsdeck/shared';
import { AvatarStack } from '@/components/avatar/avatar-stack';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { CreateIncidentDialog } from './create-incident-dialog';
import { capitalize, incidentSeverityOptions, incidentStatusOptions, incidentTypeLabel, incidentTypeOptions } from './incident-field-options';
import { QueryError } from '@/components/status/query-error';
import { SeverityBadge } from '@/components/status/severity-badge';
import { usePermissions } from '@/lib/auth/permissions';
import { useComponentOptionsQuery } from '../api/get-component-options';
import { useIncidentsQuery } from '../api/get-incidents';
import type { IncidentListParams, IncidentSortField } from '../api/keys';
import { usePeopleQuery } from '../api/get-people';
import type { IncidentListItem } from '../api/types';
import { useDocumentTitle } from '@/lib/use-document-title';
import { withParams } from '@/lib/search-params';

type SortColumn = 'id' | 'type' | 'severity' | 'status' | 'name' | 'age';

const SORT_FIELDS: Record<SortColumn, IncidentSortField> = {
  id: 'created_at',
  type: 'type',
  severity: 'severity',
  status: 'status',
  name: 'title',
  age: 'created_at',
};

function isSortColumn(value: string | null): value is SortColumn {
  return value !== null && value in SORT_FIELDS;
}

const ALL_OPTION: DropdownOption = { value: FILTER_ALL, label: 'All' };

const columns: ColumnDef<IncidentListItem>[] = [
  { id: 'id', accessorKey: 'incident_id', header: 'Id', size: 90, cell: ({ row }) => <span className="font-mono text-xs">{row.original.incident_id}</span> },
  { id: 'type', accessorKey: 'type', header: 'Type', size: 130, cell: ({ row }) => incidentTypeLabel(row.original.type) },
  { id: 'severity', accessorKey: 'severity', header: 'Severity', size: 100, cell: ({ row }) => (row.original.severity ? <SeverityBadge severity={row.original.severity} /> : null) },
  { id: 'status', accessorKey: 'status', header: 'Status', size: 120, cell: ({ row }) => capitalize(row.original.status) },
  { id: 'name', accessorKey: 'title', header: 'Name', size: 360, cell: ({ row }) => row.original.title },
  { id: 'age', accessorKey: 'created_at', header: 'Age', size: 80, cell: ({ row }) => formatRelativeTime(row.original.created_at) },
  {
    id: 'responders',
    header: 'Responders',
    size: 150,
    enableSorting: false,
    cell: ({ row }) => (
      <AvatarStack
        max={RESPONDERS_COLUMN_MAX}
        people={row.original.responders.map((responder) => ({
          id: responder.id,
          name: responder.person?.name ?? responder.team?.name ?? null,
          avatar: responder.person?.avatar ?? null,
        }))}
      />
    ),
  },
];

type FilterName = 'type' | 'severity' | 'status' | 'owner' | 'component';

/** On a phone the id and name stay; each further column shows once there is room for it. */
const NARROW_LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { severity: 390, status: 510, age: 590, responders: 740, type: 870 } };

/** The incident list: filters, paging and sorting live in the query string and are applied by the server. */
export function IncidentListPage() {
  useDocumentTitle('Incidents');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const [isCreating, setIsCreating] = useState(false);
  const people = usePeopleQuery();
  const components = useComponentOptionsQuery();

  const sortColumn = params.get('sortBy');
  const sortDesc = params.get('sortOrder') !== 'asc';
  const pageSizeParam = Number(params.get('pageSize'));
  const pageSize = (PAGE_SIZE_OPTIONS as readonly number[]).includes(pageSizeParam) ? pageSizeParam : DEFAULT_PAGE_SIZE;
  const page = Math.max(1, Math.trunc(Number(params.get('page') ?? '1')) || 1);

  const listParams: IncidentListParams = {
    type: params.get('type') ?? FILTER_ALL,
    severity: params.get('severity') ?? FILTER_ALL,
    status: params.get('status') ?? INCIDENT_LIST_DEFAULT_STATUS_FILTER,
    owner: params.get('owner') ?? FILTER_ALL,
    component: params.get('component') ?? FILTER_ALL,
    search: params.get('search') ?? '',
    pageIndex: page - 1,
    pageSize,
    // Age grows as created_at falls, so the Age column sorts the other way round.
    sortBy: isSortColumn(sortColumn) ? SORT_FIELDS[sortColumn] : 'created_at',
    sortDesc: isSortColumn(sortColumn) ? (sortColumn === 'age' ? !sortDesc : sortDesc) : true,
  };
  const incidents = useIncidentsQuery(listParams);

  const update = (changes: Record<string, string | null>) => {
    setParams(
      (previous) => withParams(previous, changes),
      { replace: true },
    );
  };

  // A new filter shows its first page.
  const handleFilter = (name: FilterName | 'search', value: string) => update({ [name]: value === '' ? null : value, page: null });

  const sorting: SortingState = isSortColumn(sortColumn) ? [{ id: sortColumn, desc: sortDesc }] : [];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    update({ sortBy: first ? first.id : null, sortOrder: first ? (first.desc ? 'desc' : 'asc') : null, page: null });
  };

  const ownerOptions = useMemo(() => [ALL_OPTION, ...(people.data ?? []).map((person) => ({ value: person.id, label: person.name }))], [people.data]);
  const componentOptions = useMemo(
    () => [ALL_OPTION, ...(components.data ?? []).map((component) => ({ value: component.id, label: component.name }))],
    [components.data],
  );

  const filters: { name: FilterName; label: string; options: readonly DropdownOption[] }[] = [
    { name: 'type', label: 'Type', options: [ALL_OPTION, ...incidentTypeOptions] },
    { name: 'severity', label: 'Severity', options: [ALL_OPTION, ...incidentSeverityOptions] },
    { name: 'status', label: 'Status', options: [ALL_OPTION, ...incidentStatusOptions] },
    { name: 'owner', label: 'Owner', options: ownerOptions },
    { name: 'component', label: 'Component', options: componentOptions },
  ];

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Incidents</h1>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void incidents.refetch()} disabled={incidents.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {can('incident', 'write') && (
          <Button aria-label={INCIDENT_MESSAGES.createTitle} className="ml-auto" onClick={() => setIsCreating(true)}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      <FilterBar>
        {filters.map((filter) => (
          <label key={filter.name} className="flex items-center gap-1.5 text-sm text-gray-700">
            {filter.label}
            <Dropdown label={filter.label} options={filter.options} value={listParams[filter.name]} onChange={(value) => handleFilter(filter.name, value)} />
          </label>
        ))}
        <SearchInput value={listParams.search} onChange={(value) => handleFilter('search', value)} placeholder={INCIDENT_MESSAGES.searchPlaceholder} />
      </FilterBar>
      {incidents.isError ? (
        <QueryError subject="Incidents" error={incidents.error} onRetry={() => void incidents.refetch()} />
      ) : (
        <DataTable
          label="Incidents"
          columns={columns}
          data={incidents.data?.rows ?? []}
          isLoading={incidents.isPending}
          emptyText={INCIDENT_MESSAGES.listEmpty}
          getRowId={(incident) => incident.id}
          onRowClick={(incident) => void navigate(`/incidents/${incident.id}`)}
          pagination={{
            pageIndex: listParams.pageIndex,
            pageSize,
            totalCount: incidents.data?.totalCount ?? 0,
            onPaginationChange: (next) => update({ page: next.pageIndex === 0 ? null : String(next.pageIndex + 1), pageSize: String(next.pageSize) }),
          }}
          sorting={{ sorting, onSortingChange: handleSortingChange }}
          layout={NARROW_LAYOUT}
        />
      )}
      {isCreating && <CreateIncidentDialog open onOpenChange={setIsCreating} />}
    </section>
  );
}
