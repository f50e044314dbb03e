import { useEffect, useMemo, useState } from 'react';
import { useSearchParamsUpdate } from '@/lib/use-search-params-update';
import type { ColumnDef } from '@tanstack/react-table';
import { KeyRound } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, formatDate, relativeRangeLabel, type TimeRange } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Pagination, pageCountOf } from '@/components/data-table/pagination';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker, type RelativeRangeOption } from '@/components/time-range/time-range-picker';
import { SettingsPageHeader } from '@/components/settings-page-header/settings-page-header';
import { withParams } from '@/lib/search-params';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuditLogQuery, type AuditEntry } from '../api/get-audit-log';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZES,
  AUDIT_PARAMS,
  AUDIT_RELATIVE_RANGES,
  auditTimeRangeParams,
  parseAuditLogParams,
} from '../audit-params';

export const EMPTY_AUDIT_MESSAGE = 'No writes match these filters';

const ANY = 'any';
const ACTION_OPTIONS: DropdownOption[] = [{ value: ANY, label: 'All' }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action }))];
const RELATIVE_RANGES: readonly RelativeRangeOption[] = AUDIT_RELATIVE_RANGES.map((length) => ({
  range: { type: 'relative', range: `now-${length}` },
  label: relativeRangeLabel(length),
}));

/** On a phone the time, actor and action stay; the resource, fields and route show once there is room. */
const LAYOUT: DataTableLayout = { grow: 'resource', hideBelow: { resource: 560, changed_fields: 820, route: 1100, status: 1250 } };

const VIA_LABELS: Record<AuditEntry['via'], string> = {
  session: 'Session',
  api_token: 'API token',
  agent: 'Agent',
  system: 'System',
  anonymous: 'Not signed in',
};

function ActorCell({ entry, onFilter }: { entry: AuditEntry; onFilter: (actor: string) => void }) {
  const name = entry.actor_name ?? VIA_LABELS[entry.via];
  return (
    <span className="flex min-w-0 flex-col">
      {entry.actor_id === null ? (
        <span className="truncate">{name}</span>
      ) : (
        <button
          type="button"
          className="truncate text-left text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
          title={`Show only the writes of ${name}`}
          onClick={(event) => {
            // The row opens the entry's details; the name filters by the person instead.
            event.stopPropagation();
            onFilter(entry.actor_id ?? '');
          }}
        >
          {name}
        </button>
      )}
      {entry.via === 'api_token' ? (
        <span className="inline-flex items-center gap-1 text-xs text-amber-700">
          <KeyRound aria-hidden="true" className="size-3" />
          API token
        </span>
      ) : (
        entry.via !== 'session' && <span className="text-xs text-gray-500">{VIA_LABELS[entry.via]}</span>
      )}
    </span>
  );
}

function FieldList({ fields }: { fields: readonly string[] }) {
  if (fields.length === 0) return <span className="text-gray-500">—</span>;
  return (
    <span className="inline-flex max-w-full flex-wrap gap-1">
      {fields.map((field) => (
        <span key={field} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-700">
          {field}
        </span>
      ))}
    </span>
  );
}

function columns(onFilterActor: (actor: string) => void): ColumnDef<AuditEntry>[] {
  return [
    {
      id: 'at',
      header: 'Time',
      size: 170,
      cell: ({ row }) => (
        <time dateTime={row.original.at} title={formatDate(row.original.at, 'datetime-seconds')}>
          {formatDate(row.original.at, 'datetime-seconds')}
        </time>
      ),
    },
    { id: 'actor', header: 'Actor', size: 170, cell: ({ row }) => <ActorCell entry={row.original} onFilter={onFilterActor} /> },
    {
      id: 'action',
      header: 'Action',
      size: 90,
      cell: ({ row }) => <span className="rounded bg-blue-50 px-1.5 py-0.5 text-xs font-medium text-blue-800">{row.original.action}</span>,
    },
    {
      id: 'resource',
      header: 'Resource',
      size: 220,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate">{row.original.resource ?? '—'}</span>
          {row.original.resource_id !== null && <span className="truncate font-mono text-xs text-gray-500">{row.original.resource_id}</span>}
          {row.original.resource_id === null && (row.original.resource_ids?.length ?? 0) > 1 && (
            <span className="text-xs text-gray-500">{row.original.resource_ids?.length} rows</span>
          )}
        </span>
      ),
    },
    { id: 'changed_fields', header: 'Changed fields', size: 240, cell: ({ row }) => <FieldList fields={row.original.changed_fields} /> },
    {
      id: 'route',
      header: 'Route',
      size: 260,
      cell: ({ row }) => (
        <span className="truncate font-mono text-xs text-gray-700">
          {row.original.method} {row.original.route}
        </span>
      ),
    },
    { id: 'status', header: 'Status', size: 70, cell: ({ row }) => row.original.status },
  ];
}

function FilterField({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="flex min-w-0 items-center gap-1.5 text-sm text-gray-700">
      {label}
      {children}
    </label>
  );
}

function EntryDetails({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const facts: Array<[string, string]> = [
    ['Time', formatDate(entry.at, 'datetime-seconds')],
    ['Actor', `${entry.actor_name ?? '—'} (${VIA_LABELS[entry.via]})`],
    ['Action', entry.action],
    ['Resource', entry.resource ?? '—'],
    ['Request', `${entry.method} ${entry.route} → ${entry.status}`],
  ];
  if (entry.resource_ids !== null && entry.resource_ids.length > 0) facts.push(['Rows', entry.resource_ids.join(', ')]);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Audit entry" size="medium" expandable={false}>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-gray-600">{term}</dt>
            <dd className="min-w-0 break-words text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-4 mb-1 text-sm font-medium text-gray-600">Changed fields</h3>
      <FieldList fields={entry.changed_fields} />
      <h3 className="mt-4 mb-1 text-sm font-medium text-gray-600">Values written</h3>
      <p className="mb-1 text-xs text-gray-500">Secret values are never recorded: a secret field shows only in the changed fields.</p>
      <pre className="max-h-80 overflow-auto rounded bg-gray-50 p-2 text-xs text-gray-800">{entry.changes === null ? 'Not recorded' : JSON.stringify(entry.changes, null, 2)}</pre>
    </Dialog>
  );
}

/**
 * /settings/audit (#19): every write made through the API, newest first, for admins. Filtered by actor, resource,
 * action and time range, and paged by the server, with every filter and the page in the URL.
 */
export function AuditLogPage() {
  useDocumentTitle('Audit Log');
  const [searchParams, setSearchParams] = useSearchParamsUpdate();
  const params = useMemo(() => parseAuditLogParams(searchParams), [searchParams]);
  const log = useAuditLogQuery(params);
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const totalCount = log.data?.totalCount ?? 0;

  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setSearchParams((previous) => withParams(previous, keepPage ? changes : { ...changes, [AUDIT_PARAMS.page]: null }), { replace: true });
  const filterActor = (actor: string) => update({ [AUDIT_PARAMS.actor]: actor === '' ? null : actor });
  const tableColumns = useMemo(() => columns((actor) => setSearchParams((previous) => withParams(previous, { [AUDIT_PARAMS.actor]: actor, [AUDIT_PARAMS.page]: null }), { replace: true })), [setSearchParams]);

  // A page past the end (an old link, or the purge removed rows): go to the last page there is.
  const answered = log.data !== undefined && !log.isPlaceholderData;
  const pageCount = pageCountOf(totalCount, params.pageSize);
  useEffect(() => {
    if (!answered || params.pageIndex < pageCount) return;
    setSearchParams((previous) => withParams(previous, { [AUDIT_PARAMS.page]: pageCount > 1 ? String(pageCount) : null }), { replace: true });
  }, [answered, params.pageIndex, pageCount, setSearchParams]);

  const hasFilters = params.actor !== '' || params.resource !== '' || params.action !== null;

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <SettingsPageHeader title="Audit Log" onRefresh={() => void log.refetch()} refreshing={log.isFetching}>
        <TimeRangePicker
          value={params.timeRange}
          relativeRanges={RELATIVE_RANGES}
          onChange={(timeRange: TimeRange) => update(auditTimeRangeParams(timeRange))}
        />
      </SettingsPageHeader>
      <FilterBar>
        <SearchInput
          value={params.actor}
          onChange={(text) => filterActor(text.trim())}
          label="Filter by actor"
          placeholder="Actor name or id"
          className="w-full sm:w-auto [&>input]:w-full sm:[&>input]:w-56"
        />
        <SearchInput
          value={params.resource}
          onChange={(text) => update({ [AUDIT_PARAMS.resource]: text.trim() === '' ? null : text.trim() })}
          label="Filter by resource"
          placeholder="Resource, e.g. connections"
          className="w-full sm:w-auto [&>input]:w-full sm:[&>input]:w-56"
        />
        <FilterField label="Action">
          <Dropdown label="Action" options={ACTION_OPTIONS} value={params.action ?? ANY} onChange={(value) => update({ [AUDIT_PARAMS.action]: value === ANY ? null : value })} />
        </FilterField>
        {hasFilters && (
          <Button
            variant="ghost"
            onClick={() => update({ [AUDIT_PARAMS.actor]: null, [AUDIT_PARAMS.resource]: null, [AUDIT_PARAMS.action]: null })}
          >
            Clear filters
          </Button>
        )}
      </FilterBar>
      {log.isError ? (
        <QueryError subject="Audit log" error={log.error} onRetry={() => void log.refetch()} />
      ) : (
        <div className="flex min-h-0 min-w-0 flex-col">
          <DataTable
            label="Audit log"
            columns={tableColumns}
            data={log.data?.rows ?? []}
            isLoading={log.isPending}
            emptyText={EMPTY_AUDIT_MESSAGE}
            getRowId={(entry) => entry.id}
            onRowClick={setSelected}
            layout={LAYOUT}
          />
          <Pagination
            pageIndex={params.pageIndex}
            pageSize={params.pageSize}
            totalCount={log.data?.totalCount ?? null}
            pageSizeOptions={AUDIT_PAGE_SIZES}
            onPageChange={(pageIndex) => update({ [AUDIT_PARAMS.page]: pageIndex === 0 ? null : String(pageIndex + 1) }, true)}
            onPageSizeChange={(pageSize) => update({ [AUDIT_PARAMS.pageSize]: pageSize === DEFAULT_PAGE_SIZE ? null : String(pageSize) })}
          />
        </div>
      )}
      {selected && <EntryDetails entry={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}

