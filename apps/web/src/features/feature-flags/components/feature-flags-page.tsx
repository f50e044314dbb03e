import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import { formatDate, isAdminOnlyProperty } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { toastError } from '@/components/toast/toast';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlagsQuery } from '../api/get-feature-flags';
import { flagSource, isLocalFlag, type FeatureFlag } from '../api/types';
import { FeatureFlagDialog } from './feature-flag-dialog';
import { useDocumentTitle } from '@/lib/use-document-title';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';

export const LOCAL_FLAG_MESSAGE = 'Cannot edit local feature flags';

/** What an editor is told on opening a property that only administrators may change (the server refuses it too). */
export function adminOnlyFlagMessage(name: string): string {
  return `Only administrators may change ${name}`;
}

const columns: ColumnDef<FeatureFlag>[] = [
  { id: 'name', header: 'Name', accessorKey: 'name', size: 220 },
  { id: 'description', header: 'Description', accessorKey: 'description', size: 260 },
  { id: 'value', header: 'Value', accessorKey: 'value', size: 120 },
  { id: 'source', header: 'Source', size: 100, cell: ({ row }) => flagSource(row.original) },
  {
    id: 'created_by',
    header: 'Created By',
    size: 180,
    cell: ({ row }) => {
      const creator = row.original.creator;
      if (!creator) return null;
      return (
        <span className="inline-flex items-center gap-2">
          <Avatar name={creator.name} src={creator.avatar} size="sm" />
          <span className="truncate">{creator.name}</span>
        </span>
      );
    },
  },
  { id: 'created_at', header: 'Created At', size: 150, cell: ({ row }) => formatDate(row.original.created_at) },
  { id: 'updated_at', header: 'Updated At', size: 150, cell: ({ row }) => formatDate(row.original.updated_at) },
];

type DialogState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; flag: FeatureFlag };

export function FeatureFlagsPage() {
  useDocumentTitle('Feature Flags');
  const flags = useFeatureFlagsQuery();
  const { can, isAdmin } = usePermissions();
  const canWrite = can('feature_flags', 'write');
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const data = useMemo(() => flags.data ?? [], [flags.data]);

  const handleRowClick = (flag: FeatureFlag) => {
    if (isLocalFlag(flag)) {
      toastError(LOCAL_FLAG_MESSAGE);
      return;
    }
    if (!isAdmin && isAdminOnlyProperty(flag.name)) {
      toastError(adminOnlyFlagMessage(flag.name));
      return;
    }
    setDialog({ mode: 'edit', flag });
  };

  const handleDialogOpenChange = (open: boolean) => {
    if (!open) setDialog({ mode: 'closed' });
  };

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <SettingsTrail title="Feature Flags" />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void flags.refetch()} disabled={flags.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {canWrite && (
          <Button variant="primary" aria-label="Add Feature Flag" className="ml-auto" onClick={() => setDialog({ mode: 'add' })}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      {flags.isError ? (
        <QueryError subject="Feature flags" error={flags.error} onRetry={() => void flags.refetch()} />
      ) : (
        <DataTable
          label="Feature flags"
          columns={columns}
          data={data}
          isLoading={flags.isPending}
          getRowId={(flag) => flag.name}
          onRowClick={canWrite ? handleRowClick : undefined}
          preferenceKey="feature-flags"
        />
      )}
      {dialog.mode !== 'closed' && (
        <FeatureFlagDialog
          key={dialog.mode === 'edit' ? dialog.flag.name : 'new'}
          open
          onOpenChange={handleDialogOpenChange}
          flag={dialog.mode === 'edit' ? dialog.flag : undefined}
        />
      )}
    </section>
  );
}
