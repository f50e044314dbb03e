import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { RefreshCw, Trash2, UserCheck, UserX } from 'lucide-react';
import { formatDate, type UserSummary } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDeleteUser } from '../api/delete-user';
import { useUsersQuery } from '../api/get-users';
import { useSetUserState } from '../api/set-user-state';
import { InviteUserDialog } from './invite-user-dialog';
import { UpdateUserRoleDialog } from './update-user-role-dialog';

export const EMPTY_USERS_MESSAGE = 'No users found';

/** On a phone the name and the actions stay; the rest shows once there is room for it. */
const LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { email: 520, roles: 640, state: 760, created_at: 900 } };

interface UserActions {
  onToggleState: (user: UserSummary) => void;
  onDelete: (user: UserSummary) => void;
  busyId: string | null;
}

function StateBadge({ state }: { state: UserSummary['state'] }) {
  const active = state === 'active';
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${active ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-600'}`}>
      {active ? 'Active' : 'Inactive'}
    </span>
  );
}

function columns(actions: UserActions | null): ColumnDef<UserSummary>[] {
  const list: ColumnDef<UserSummary>[] = [
    {
      id: 'name',
      header: 'Name',
      size: 240,
      cell: ({ row }) => (
        <span className="inline-flex max-w-full min-w-0 items-center gap-2">
          <Avatar name={row.original.name} src={row.original.avatar} size="sm" />
          <span className="truncate">{row.original.name}</span>
        </span>
      ),
    },
    { id: 'email', header: 'Email', size: 220, cell: ({ row }) => <span className="truncate">{row.original.email ?? ''}</span> },
    {
      id: 'roles',
      header: 'Roles',
      size: 200,
      cell: ({ row }) => (
        <span className="inline-flex flex-wrap gap-1">
          {row.original.roles.map((role) => (
            <span key={role} className="rounded bg-blue-50 px-1.5 py-0.5 text-xs text-blue-800">
              {role}
            </span>
          ))}
        </span>
      ),
    },
    { id: 'state', header: 'State', size: 100, cell: ({ row }) => <StateBadge state={row.original.state} /> },
    {
      id: 'created_at',
      header: 'Created At',
      size: 170,
      cell: ({ row }) => (
        <time dateTime={row.original.created_at} title={formatDate(row.original.created_at, 'datetime-seconds')}>
          {formatDate(row.original.created_at)}
        </time>
      ),
    },
  ];
  if (actions === null) return list;
  return [
    ...list,
    {
      id: 'actions',
      header: 'Actions',
      size: 120,
      cell: ({ row }) => {
        const user = row.original;
        const isActive = user.state === 'active';
        return (
          <span className="inline-flex items-center gap-1">
            <Button
              variant="ghost"
              aria-label={`${isActive ? 'Deactivate' : 'Activate'} ${user.name}`}
              title={isActive ? 'Deactivate' : 'Activate'}
              isPending={actions.busyId === user.id}
              onClick={() => actions.onToggleState(user)}
            >
              {isActive ? <UserX aria-hidden="true" className="size-4" /> : <UserCheck aria-hidden="true" className="size-4" />}
            </Button>
            <Button variant="ghost" aria-label={`Delete ${user.name}`} title="Delete" onClick={() => actions.onDelete(user)}>
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </span>
        );
      },
    },
  ];
}

type DialogState = { kind: 'closed' } | { kind: 'invite' } | { kind: 'role' } | { kind: 'delete'; user: UserSummary };

/** /settings/users (spec 002 §2.2 'Users screen'): the console's users, inviting them, their roles and their state. */
export function UsersPage() {
  useDocumentTitle('Users');
  const users = useUsersQuery();
  const { can } = usePermissions();
  const canManageUsers = can('identities', 'write');
  const canManageRoles = can('rbac', 'write');
  const { mutate: changeState, isPending: isChangingState, variables: stateChange } = useSetUserState();
  const deleteUser = useDeleteUser();
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const rows = useMemo(() => users.data ?? [], [users.data]);
  const busyId = isChangingState ? (stateChange?.user.id ?? null) : null;

  const tableColumns = useMemo(
    () =>
      columns(
        canManageUsers
          ? {
              busyId,
              onToggleState: (user) => changeState({ user, state: user.state === 'active' ? 'inactive' : 'active' }),
              onDelete: (user) => setDialog({ kind: 'delete', user }),
            }
          : null,
      ),
    [canManageUsers, busyId, changeState],
  );

  const closeDialog = (open: boolean) => {
    if (!open) setDialog({ kind: 'closed' });
  };

  const handleDelete = (user: UserSummary) => {
    deleteUser.mutate(user.id, { onSettled: () => setDialog({ kind: 'closed' }) });
  };

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Users</h1>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void users.refetch()} disabled={users.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        <span className="ml-auto flex flex-wrap gap-2">
          {canManageRoles && (
            <Button variant="secondary" onClick={() => setDialog({ kind: 'role' })} disabled={users.isPending}>
              Add Role to User
            </Button>
          )}
          {canManageUsers && <Button onClick={() => setDialog({ kind: 'invite' })}>Invite User</Button>}
        </span>
      </header>
      {users.isError ? (
        <QueryError subject="Users" error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        <DataTable
          label="Users"
          columns={tableColumns}
          data={rows}
          isLoading={users.isPending}
          emptyText={EMPTY_USERS_MESSAGE}
          getRowId={(user) => user.id}
          preferenceKey="settings-users"
          layout={LAYOUT}
        />
      )}
      {dialog.kind === 'invite' && <InviteUserDialog open onOpenChange={closeDialog} />}
      {dialog.kind === 'role' && <UpdateUserRoleDialog users={rows} open onOpenChange={closeDialog} />}
      {dialog.kind === 'delete' && (
        <ConfirmDialog
          open
          onOpenChange={closeDialog}
          title="Delete User ?"
          message={`Are you sure you want to delete ${dialog.user.name}? They can no longer sign in, and their sessions end now.`}
          confirmLabel="Delete"
          isPending={deleteUser.isPending}
          onConfirm={() => handleDelete(dialog.user)}
        />
      )}
    </section>
  );
}
