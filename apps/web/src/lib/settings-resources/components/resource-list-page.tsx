import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import { formatDate } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { Dialog } from '@/components/dialog/dialog';
import { CreatorsContext, resourceColumns } from '@/components/resource-columns/resource-columns';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { useCreateResource } from '../api/create-resource';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { useResourcesQuery } from '../api/get-resources';
import type { SettingsResourceInput, SettingsResourceRow } from '../api/types';
import { hiddenColumns, resourceListPath, type SettingsResourceKind } from '../settings-resource-kind';
import { ResourceForm } from './resource-form';
import { SettingsBreadcrumb } from './settings-breadcrumb';
import { TagsCell } from './tags-cell';
import { useDocumentTitle } from '@/lib/use-document-title';

export const EMPTY_RESOURCES_MESSAGE = 'No resources found';

function allColumns(kind: SettingsResourceKind): (ColumnDef<SettingsResourceRow> & { id: string })[] {
  const common = resourceColumns<SettingsResourceRow>({ nameIcon: kind.nameIcon });
  return [
    common.name,
    ...(kind.extraColumns ?? []),
    common.source,
    common.schedule,
    { id: 'namespace', header: 'Namespace', size: 120, cell: ({ row }) => row.original.namespace ?? '' },
    common.job_status,
    common.last_runtime,
    common.job_last_failed,
    { id: 'tags', header: 'Tags', size: 200, cell: ({ row }) => <TagsCell labels={row.original.labels} /> },
    common.created_at,
    { id: 'updated_at', header: 'Updated', size: 140, cell: ({ row }) => formatDate(row.original.updated_at) },
    common.created_by,
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
  const creators = useMemo(() => new Map((people.data ?? []).map((person) => [person.id, person])), [people.data]);
  const columns = useMemo(() => {
    const hidden: ReadonlySet<string> = hiddenColumns(kind);
    return allColumns(kind).filter((column) => !hidden.has(column.id));
  }, [kind]);
  const { can } = usePermissions();
  const canWrite = can(kind.resource, 'write');
  const session = useSession();
  const createResource = useCreateResource();
  const [isAdding, setIsAdding] = useState(false);
  const Form = kind.form ?? ResourceForm;

  const handleAdd = () => {
    // A failure from an earlier attempt belongs to that attempt's form.
    createResource.reset();
    setIsAdding(true);
  };

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
          <Button variant="primary" aria-label={`Add ${kind.singular}`} className="ml-auto" onClick={handleAdd}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      {resources.isError ? (
        <QueryError subject={kind.title} error={resources.error} onRetry={() => void resources.refetch()} />
      ) : (
        <CreatorsContext value={creators}>
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
        </CreatorsContext>
      )}
      {isAdding && (
        <Dialog open onOpenChange={setIsAdding} title={`Add ${kind.singular}`} size="large">
          <Form
            kind={kind}
            canWrite={canWrite}
            isSaving={createResource.isPending}
            onSubmit={handleCreate}
            onCancel={() => setIsAdding(false)}
            saveError={createResource.error}
          />
        </Dialog>
      )}
    </section>
  );
}
