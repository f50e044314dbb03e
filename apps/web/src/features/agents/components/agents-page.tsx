import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { Plus, RefreshCw, Trash2 } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, agentStatus, formatDate, formatRelativeTime } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Pagination } from '@/components/data-table/pagination';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAgentsQuery, type AgentListRow } from '../api/get-agents';
import { AGENT_PAGE_SIZES, parseAgentListParams, sortFieldOf } from '../agent-list-params';
import { AGENT_EDITOR_PARAMS, AgentEditorFromSearchParams } from './agent-editor-from-search-params';
import { DeleteAgentDialogs } from './delete-agent-dialogs';
import { withParams } from '@/lib/search-params';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';

/** On a phone the name, status and delete stay; the rest shows once there is room for it. */
const LAYOUT: DataTableLayout = {
  grow: 'name',
  hideBelow: {
    checks: 430,
    configs: 500,
    scrapers: 570,
    last_received: 660,
    playbook_runs: 760,
    created_by: 860,
    updated_at: 960,
    created_at: 1040,
  },
};
function When({ at }: { at: string | null }) {
  if (at === null) return <span className="text-gray-500">Never</span>;
  return (
    <time dateTime={at} title={formatDate(at, 'datetime-seconds')}>
      {formatRelativeTime(at)} ago
    </time>
  );
}

/** The full date and time on hover, as a narrow column may cut it short. */
function DateCell({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatDate(at, 'datetime-seconds')}>
      {formatDate(at)}
    </time>
  );
}

function StatusCell({ lastSeen }: { lastSeen: string | null }) {
  const status = agentStatus(lastSeen);
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${status === 'Online' ? 'bg-green-500' : 'bg-gray-400'}`} />
      {status}
    </span>
  );
}

const count = (value: number) => <span className="tabular-nums">{value}</span>;

function columns(onDelete: ((agent: AgentListRow) => void) | null): ColumnDef<AgentListRow>[] {
  const list: ColumnDef<AgentListRow>[] = [
    { id: 'name', accessorKey: 'name', header: 'Name', size: 200, cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { id: 'configs', accessorKey: 'config_count', header: 'Configs', size: 80, cell: ({ row }) => count(row.original.config_count) },
    { id: 'checks', accessorKey: 'checks_count', header: 'Checks', size: 80, cell: ({ row }) => count(row.original.checks_count) },
    { id: 'scrapers', accessorKey: 'config_scrapper_count', header: 'Scrapers', size: 84, cell: ({ row }) => count(row.original.config_scrapper_count) },
    { id: 'playbook_runs', accessorKey: 'playbook_runs_count', header: 'Playbook Runs', size: 100, cell: ({ row }) => count(row.original.playbook_runs_count) },
    { id: 'status', accessorKey: 'last_seen', header: 'Status', size: 100, cell: ({ row }) => <StatusCell lastSeen={row.original.last_seen} /> },
    { id: 'last_received', accessorKey: 'last_received', header: 'Last Pushed', size: 104, cell: ({ row }) => <When at={row.original.last_received} /> },
    { id: 'created_at', accessorKey: 'created_at', header: 'Created At', size: 130, cell: ({ row }) => <DateCell at={row.original.created_at} /> },
    { id: 'updated_at', accessorKey: 'updated_at', header: 'Updated At', size: 130, cell: ({ row }) => <DateCell at={row.original.updated_at} /> },
    { id: 'created_by', header: 'Created By', size: 110, enableSorting: false, cell: ({ row }) => row.original.creator?.name ?? '' },
  ];
  if (onDelete === null) return list;
  return [
    ...list,
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      size: 44,
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          variant="ghost"
          aria-label={`Delete ${row.original.name}`}
          // The row opens the editor; this button deletes instead.
          onClick={(event) => {
            event.stopPropagation();
            onDelete(row.original);
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      ),
    },
  ];
}

/** /agents and /settings/agents (spec 001 §2.6): the agents with their counts and status, sorted and paged by the server. */
export function AgentsPage() {
  useDocumentTitle('Agents');
  const [search, setSearch] = useSearchParams();
  const { can } = usePermissions();
  const canWrite = can('agents', 'write');
  const params = useMemo(() => parseAgentListParams(search), [search]);
  const agents = useAgentsQuery({ sortBy: sortFieldOf(params.column), sortDesc: params.desc, pageIndex: params.pageIndex, pageSize: params.pageSize });
  const [deleting, setDeleting] = useState<AgentListRow | null>(null);
  const tableColumns = useMemo(() => columns(canWrite ? setDeleting : null), [canWrite]);

  const update = (changes: Record<string, string | null>) =>
    setSearch(
      (previous) => withParams(previous, changes),
      { replace: true },
    );

  const sorting: SortingState = [{ id: params.column, desc: params.desc }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    // A new order shows its first page.
    update({ sortBy: first ? first.id : null, sortOrder: first ? (first.desc ? 'desc' : 'asc') : null, page: null });
  };

  const openEditor = (agent: AgentListRow) =>
    setSearch((previous) => {
      const next = new URLSearchParams(previous);
      next.set(AGENT_EDITOR_PARAMS.id, agent.id);
      return next;
    });

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <SettingsTrail title="Agents" />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void agents.refetch()} disabled={agents.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {canWrite && (
          <Button aria-label="Add Agent" className="ml-auto" onClick={() => update({ [AGENT_EDITOR_PARAMS.add]: 'true' })}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      {agents.isError ? (
        <QueryError subject="Agents" error={agents.error} onRetry={() => void agents.refetch()} />
      ) : (
        <div className="flex min-h-0 min-w-0 flex-col">
          <DataTable
            label="Agents"
            columns={tableColumns}
            data={agents.data?.rows ?? []}
            isLoading={agents.isPending}
            emptyText="No agents"
            getRowId={(agent) => agent.id}
            onRowClick={openEditor}
            sorting={{ sorting, onSortingChange: handleSortingChange }}
            layout={LAYOUT}
          />
          <Pagination
            pageIndex={params.pageIndex}
            pageSize={params.pageSize}
            totalCount={agents.data?.totalCount ?? null}
            pageSizeOptions={AGENT_PAGE_SIZES}
            onPageChange={(pageIndex) => update({ page: pageIndex === 0 ? null : String(pageIndex + 1) })}
            onPageSizeChange={(pageSize) => update({ pageSize: pageSize === DEFAULT_PAGE_SIZE ? null : String(pageSize), page: null })}
          />
        </div>
      )}
      {deleting !== null && <DeleteAgentDialogs agent={deleting} onClose={() => setDeleting(null)} />}
      <AgentEditorFromSearchParams />
    </section>
  );
}
