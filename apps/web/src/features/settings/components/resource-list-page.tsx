import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import { formatDate, formatRelativeTime } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { useCreateResource } from '../api/create-resource';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { useResourcesQuery } from '../api/get-resources';
import { NO_AGENT_ID, type Person, type SettingsResourceInput, type SettingsResourceRow } from '../api/types';
import { hiddenColumns, resourceListPath, type SettingsColumn, type SettingsResourceKind } from '../resource-kinds';
import { JobStatusCell } from './job-status-cell';
import { ResourceForm } from './resource-form';
import { SettingsBreadcrumb } from './settings-breadcrumb';
import { TagsCell } from './tags-cell';
import { useDocumentTitle } from '@/lib/use-document-title';

export const EMPTY_RESOURCES_MESSAGE = 'No resources found';

function relative(value: string | null | undefined): string {
  return value ? formatRelativeTime(value) : '';
}

function allColumns(people: ReadonlyMap<string, Person>): (ColumnDef<SettingsResourceRow> & { id: SettingsColumn })[] {
  return [
    {
      id: 'name',
      header: 'Name',
      size: 240,
      cell: ({ row }) => {
        const { agent, agent_id: agentId } = row.original;
        return (
          <span className="inline-flex min-w-0 items-center gap-2">
            <span className="truncate">{row.original.name}</span>
            {agent && agentId !== NO_AGENT_ID && <span className="shrink-0 rounded bg-purple-100 px-1.5 py-0.5 text-xs text-purple-800">{agent.name}</span>}
          </span>
        );
      },
    },
    { id: 'source', header: 'Source', size: 110, cell: ({ row }) => row.original.source ?? '' },
    { id: 'schedule', header: 'Schedule', size: 120, cell: ({ row }) => row.original.schedule ?? '' },
    { id: 'namespace', header: 'Namespace', size: 120, cell: ({ row }) => row.original.namespace ?? '' },
    {
      id: 'job_status',
      header: 'Job Status',
      size: 170,
      cell: ({ row }) => <JobStatusCell resourceName={row.original.name} status={row.original.job_status} details={row.original.job_details} />,
    },
    { id: 'last_runtime', header: 'Last Run', size: 100, cell: ({ row }) => relative(row.original.last_runtime) },
    { id: 'job_last_failed', header: 'Last Failed', size: 100, cell: ({ row }) => relative(row.original.job_last_failed) },
    { id: 'tags', header: 'Tags', size: 200, cell: ({ row }) => <TagsCell labels={row.original.labels} /> },
    { id: 'created_at', header: 'Created', size: 140, cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'updated_at', header: 'Updated', size: 140, cell: ({ row }) => formatDate(row.original.updated_at) },
    {
      id: 'created_by',
      header: 'Created By',
      size: 100,
      cell: ({ row }) => {
        const person = row.original.created_by ? people.get(row.original.created_by) : undefined;
        return person ? <Avatar name={person.name} src={person.avatar} size="sm" /> : null;
      },
    },
  ];
}

export interface ResourceListPageProps {
  kind: SettingsResourceKind;
}

/** /settings/{table} (spec 002 §2.2 'Generic resource list page'). */
export function ResourceListPage({ kind }: ResourceListPageProps) {
  useDocumentTitle(kind.title);
  const navigate = useNavigate();
  const resources = useResourcesQuery(kind);
  const rows = useMemo(() => resources.data ?? [], [resources.data]);
  const creatorIds = useMemo(() => [...new Set(rows.map((row) => row.created_by).filter((id): id is string => id !== null))].sort(), [rows]);
  const people = usePeopleByIdsQuery(creatorIds);
  const columns = useMemo(() => {
    const hidden = hiddenColumns(kind);
    return allColumns(new Map((people.data ?? []).map((person) => [person.id, person]))).filter((column) => !hidden.has(column.id));
  }, [people.data, kind]);
  const { can } = usePermissions();
  const canWrite = can(kind.resource, 'write');
  const session = useSession();
  const createResource = useCreateResource();
  const [isAdding, setIsAdding] = useState(false);

  const handleCreate = (input: SettingsResourceInput) => {
    createResource.mutate({ kind, input, createdBy: session.data?.person.id ?? null }, { onSuccess: () => setIsAdding(false) });
  };

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <SettingsBreadcrumb kind={kind} />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void resources.refetch()} disabled={resources.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {canWrite && (
          <Button variant="primary" aria-label={`Add ${kind.singular}`} className="ml-auto" onClick={() => setIsAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      {resources.isError ? (
        <QueryError subject={kind.title} error={resources.error} onRetry={() => void resources.refetch()} />
      ) : (
        <DataTable
          label={kind.title}
          columns={columns}
          data={rows}
          isLoading={resources.isPending}
          emptyText={EMPTY_RESOURCES_MESSAGE}
          getRowId={(row) => row.id}
          onRowClick={(row) => void navigate(`${resourceListPath(kind)}/${row.id}`)}
          preferenceKey={`settings-${kind.table}`}
        />
      )}
      {isAdding && (
        <Dialog open onOpenChange={setIsAdding} title={`Add ${kind.singular}`} size="large">
          <ResourceForm kind={kind} canWrite={canWrite} isSaving={createResource.isPending} onSubmit={handleCreate} onCancel={() => setIsAdding(false)} />
        </Dialog>
      )}
    </section>
  );
}
