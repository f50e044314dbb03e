import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { RefreshCw, Trash2, UserCheck, UserX } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, formatDate, type UserSummary } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { Pagination, pageCountOf } from '@/components/data-table/pagination';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { SearchInput } from '@/components/filters/search-input';
import { QueryError } from '@/components/status/query-error';
import { TEXT_SEARCH_MAX_LENGTH } from '@/lib/api/text-search';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDeleteUser } from '../api/delete-user';
import { useUsersQuery } from '../api/get-users';
import { useSetUserState } from '../api/set-user-state';
import { USER_LIST_PARAMS, USER_PAGE_SIZES, parseUserListParams } from '../user-list-params';
import { InviteUserDialog } from './invite-user-dialog';
import { UpdateUserRoleDialog } from './update-user-role-dialog';
import { withParams } from '@/lib/search-params';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';

export const EMPTY_USERS_MESSAGE = 'No users found';

/** The empty table while searching: the search found no one. */
export function noMatchingUsersMessage(search: string): string {
  return `No users match “${search}”`;
}

/** On a phone the name and the actions stay; the rest shows once there is room for it. */
const LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { email: 520, roles: 640, state: 760, created_at: 900 } };

interface UserActions {
  onToggleState: (user: UserSummary) => void;
  onDelete: (user: UserSummary) => void;
  busyId: string | null;
}

/** Active, Inactive, or Invited for an active account whose invitation link has not been used yet (#34 item 19). */
function StateBadge({ user }: { user: Pick<UserSummary, 'state' | 'invited'> }) {
  const active = user.state === 'active';
  const invited = active && user.invited;
  const tone = invited ? 'bg-blue-100 text-blue-800' : active ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-600';
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${tone}`}
      title={invited ? 'Invited: the invitation link has not been used to set a password yet' : undefined}
    >
      {invited ? 'Invited' : active ? 'Active' : 'Inactive'}
    </span>
  );
}

function columns(actions: UserActions | null): ColumnDef<UserSummary>[] {
  const list: ColumnDef<UserSummary>[] = [
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Name',
      size: 240,
      cell: ({ row }) => (
        <span className="inline-flex max-w-full min-w-0 items-center gap-2">
          <Avatar name={row.original.name} src={row.original.avatar} size="sm" />
          <span className="truncate">{row.original.name}</span>
        </span>
      ),
    },
    { id: 'email', accessorKey: 'email', header: 'Email', size: 220, cell: ({ row }) => <span className="truncate">{row.original.email ?? ''}</span> },
    {
      id: 'roles',
      header: 'Roles',
      size: 200,
      enableSorting: false,
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
    { id: 'state', accessorKey: 'state', header: 'State', size: 100, cell: ({ row }) => <StateBadge user={row.original} /> },
    {
      id: 'created_at',
      accessorKey: 'created_at',
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
      enableSorting: false,
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

/**
 * /settings/users (spec 002 §2.2 'Users screen'): the console's users, inviting them, their roles and their state.
 * Searched, sorted and paged by the server, with the search, order and page in the URL, so a console with thousands
 * of users loads one page at a time.
 */
export function UsersPage() {
  useDocumentTitle('Users');
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseUserListParams(searchParams), [searchParams]);
  const searchText = searchParams.get(USER_LIST_PARAMS.search) ?? '';
  const users = useUsersQuery(params);
  const { can } = usePermissions();
  const canManageUsers = can('identities', 'write');
  const canManageRoles = can('rbac', 'write');
  const { mutate: changeState, isPending: isChangingState, variables: stateChange } = useSetUserState();
  const deleteUser = useDeleteUser();
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const rows = users.data?.rows ?? [];
  const totalCount = users.data?.totalCount ?? 0;
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

  const update = (changes: Record<string, string | null>) =>
    setSearchParams(
      (previous) => withParams(previous, changes),
      { replace: true },
    );

  // A page past the end (the last user of the last page was deleted, or an old link): go to the last page there is.
  const answered = users.data !== undefined && !users.isPlaceholderData;
  const pageCount = pageCountOf(totalCount, params.pageSize);
  useEffect(() => {
    if (!answered || params.pageIndex < pageCount) return;
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (pageCount > 1) next.set(USER_LIST_PARAMS.page, String(pageCount));
        else next.delete(USER_LIST_PARAMS.page);
        return next;
      },
      { replace: true },
    );
  }, [answered, params.pageIndex, pageCount, setSearchParams]);

  const sorting: SortingState = [{ id: params.sortBy, desc: params.sortDesc }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    // A new order shows its first page.
    update({
      [USER_LIST_PARAMS.sortBy]: first ? first.id : null,
      [USER_LIST_PARAMS.sortOrder]: first ? (first.desc ? 'desc' : 'asc') : null,
      [USER_LIST_PARAMS.page]: null,
    });
  };

  const closeDialog = (open: boolean) => {
    if (!open) setDialog({ kind: 'closed' });
  };

  const handleDelete = (user: UserSummary) => {
    deleteUser.mutate(user.id, { onSettled: () => setDialog({ kind: 'closed' }) });
  };

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <SettingsTrail title="Users" />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void users.refetch()} disabled={users.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        <span className="ml-auto flex flex-wrap gap-2">
          {canManageRoles && (
            <Button variant="secondary" onClick={() => setDialog({ kind: 'role' })}>
              Add Role to User
            </Button>
          )}
          {canManageUsers && <Button onClick={() => setDialog({ kind: 'invite' })}>Invite User</Button>}
        </span>
      </header>
      <div role="search" aria-label="User search" className="flex min-w-0 flex-wrap items-center gap-2">
        <SearchInput
          value={searchText}
          onChange={(text) => {
            const typed = [...text].slice(0, TEXT_SEARCH_MAX_LENGTH).join('');
            // What was typed stays as typed (a trailing space included); the server is asked for it trimmed, and a new
            // search shows its first page.
            const changes: Record<string, string | null> = { [USER_LIST_PARAMS.search]: typed.trim() === '' ? null : typed };
            if (typed.trim() !== params.search) changes[USER_LIST_PARAMS.page] = null;
            update(changes);
          }}
          label="Search users by name or email"
          placeholder="Search by name or email"
          className="w-full sm:w-auto [&>input]:w-full sm:[&>input]:w-72"
        />
      </div>
      {users.isError ? (
        <QueryError subject="Users" error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        <div className="flex min-h-0 min-w-0 flex-col">
          <DataTable
            label="Users"
            columns={tableColumns}
            data={rows}
            isLoading={users.isPending}
            emptyText={params.search === '' ? EMPTY_USERS_MESSAGE : noMatchingUsersMessage(params.search)}
            getRowId={(user) => user.id}
            sorting={{ sorting, onSortingChange: handleSortingChange }}
            preferenceKey="settings-users"
            layout={LAYOUT}
          />
          <Pagination
            pageIndex={params.pageIndex}
            pageSize={params.pageSize}
            totalCount={users.data?.totalCount ?? null}
            pageSizeOptions={USER_PAGE_SIZES}
            onPageChange={(pageIndex) => update({ [USER_LIST_PARAMS.page]: pageIndex === 0 ? null : String(pageIndex + 1) })}
            onPageSizeChange={(pageSize) =>
              update({ [USER_LIST_PARAMS.pageSize]: pageSize === DEFAULT_PAGE_SIZE ? null : String(pageSize), [USER_LIST_PARAMS.page]: null })
            }
          />
        </div>
      )}
      {dialog.kind === 'invite' && <InviteUserDialog open onOpenChange={closeDialog} />}
      {dialog.kind === 'role' && <UpdateUserRoleDialog open onOpenChange={closeDialog} />}
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
