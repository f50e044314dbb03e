import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import { formatDate } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { CreatorsContext, resourceColumns } from '@/components/resource-columns/resource-columns';
import { QueryError } from '@/components/status/query-error';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { SettingsBreadcrumb } from '@/lib/settings-resources/components/settings-breadcrumb';
import { useIntegrationsQuery, type IntegrationRow } from '../api/get-integrations';
import { parseIntegrationListParams, serializeIntegrationListParams } from '../integration-list-params';
import { integrationPath, integrationTypeInfo, INTEGRATIONS_TITLE } from '../integration-types';
import { AddIntegrationDialog, ADD_INTEGRATION_TITLE } from './add-integration-dialog';


const BREADCRUMB = { table: 'integrations', title: INTEGRATIONS_TITLE };

function TypeIcon({ type }: { type: string }) {
  const info = integrationTypeInfo(type);
  if (info === null) return null;
  const Icon = info.icon;
  return <Icon aria-label={info.label} role="img" className="size-4 shrink-0 text-gray-500" />;
}

const common = resourceColumns<IntegrationRow>({ nameIcon: (row) => <TypeIcon type={row.integration_type} /> });

/** Spec 001 §3 'Integration list row'. */
const columns: ColumnDef<IntegrationRow>[] = [
  common.name,
  { id: 'type', header: 'Type', size: 130, cell: ({ row }) => integrationTypeInfo(row.original.integration_type)?.label ?? row.original.integration_type },
  common.source,
  { id: 'namespace', header: 'Namespace', size: 120, cell: ({ row }) => row.original.namespace ?? '' },
  common.job_status,
  common.last_runtime,
  common.created_by,
  common.created_at,
  { id: 'updated_at', header: 'Updated', size: 140, cell: ({ row }) => formatDate(row.original.updated_at) },
];

/** On a phone the name, type and status stay; the rest come back as the table widens. */
const LAYOUT: DataTableLayout = {
  grow: 'name',
  hideBelow: { namespace: 640, source: 640, last_runtime: 760, created_by: 760, created_at: 900, updated_at: 1100 },
};

/** /settings/integrations (spec 001 §2.7): topologies, scrapers and log backends in one paged list. */
export function IntegrationsPage() {
  useDocumentTitle(INTEGRATIONS_TITLE);
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const params = parseIntegrationListParams(search);
  const integrations = useIntegrationsQuery(params);
  const rows = useMemo(() => integrations.data?.rows ?? [], [integrations.data]);
  const creatorIds = useMemo(() => [...new Set(rows.map((row) => row.created_by).filter((id): id is string => id !== null))].sort(), [rows]);
  const people = usePeopleByIdsQuery(creatorIds);
  const creators = useMemo(() => new Map((people.data ?? []).map((person) => [person.id, person])), [people.data]);
  const { can } = usePermissions();
  const [isAdding, setIsAdding] = useState(false);

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <SettingsBreadcrumb kind={BREADCRUMB} />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void integrations.refetch()} disabled={integrations.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {can('integrations', 'write') && (
          <Button variant="primary" className="ml-auto" onClick={() => setIsAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
            {ADD_INTEGRATION_TITLE}
          </Button>
        )}
      </header>
      {integrations.isError ? (
        <QueryError subject={INTEGRATIONS_TITLE} error={integrations.error} onRetry={() => void integrations.refetch()} />
      ) : (
        <CreatorsContext value={creators}>
          <DataTable
            label={INTEGRATIONS_TITLE}
            columns={columns}
            data={rows}
            isLoading={integrations.isPending}
            getRowId={(row) => `${row.integration_type}:${row.id}`}
            onRowClick={(row) => void navigate(integrationPath(row.integration_type, row.id))}
            pagination={{
              pageIndex: params.pageIndex,
              pageSize: params.pageSize,
              totalCount: integrations.data?.totalCount ?? 0,
              onPaginationChange: (next) => setSearch(serializeIntegrationListParams(next), { replace: true }),
            }}
            layout={LAYOUT}
            preferenceKey="settings-integrations"
          />
        </CreatorsContext>
      )}
      {isAdding && <AddIntegrationDialog onClose={() => setIsAdding(false)} />}
    </section>
  );
}
