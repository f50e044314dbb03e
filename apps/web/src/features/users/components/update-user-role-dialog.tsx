import { useMemo, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DEBOUNCE_MS, isRole, truncateName, USER_FORM_MESSAGES, type Role } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { FormField, describedBy, fieldIds } from '@/components/forms/form-field';
import { SearchPicker, type SearchPickerOption } from '@/components/forms/search-picker';
import { SelectField } from '@/components/forms/select-field';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { USER_PICKER_LIMIT, useUserSearchQuery, type UserChoice } from '../api/search-users';
import { useUpdateUserRole } from '../api/update-user-role';
import { ROLE_OPTIONS } from './role-options';

const schema = z.object({
  userId: z.string().min(1, USER_FORM_MESSAGES.user),
  role: z.string().refine((value): value is Role => isRole(value), USER_FORM_MESSAGES.role),
});
type UpdateRoleFormValues = z.input<typeof schema>;

/** Names are cut to 50 characters (spec 002 §9); the address beside them tells two alike apart. */
export function userChoiceLabel(user: UserChoice): string {
  return user.email === null ? truncateName(user.name) : `${truncateName(user.name)} (${user.email})`;
}

interface UserFieldProps {
  control: Control<UpdateRoleFormValues>;
  chosen: UserChoice | null;
  onChoose: (user: UserChoice) => void;
  disabled: boolean;
}

/** The user to give the role to: searched on the server by name or e-mail as it is typed, 50 at most by name. */
function UserField({ control, chosen, onChoose, disabled }: UserFieldProps) {
  const { field, fieldState } = useController({ control, name: 'userId' });
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), DEBOUNCE_MS.search);
  const matches = useUserSearchQuery(search);
  const users = useMemo(() => matches.data ?? [], [matches.data]);
  const options = useMemo<SearchPickerOption[]>(() => users.map((user) => ({ id: user.id, label: userChoiceLabel(user) })), [users]);
  const { id } = fieldIds('userId');
  const error = fieldState.error?.message;
  const chosenId = `${id}-chosen`;

  const handlePick = (option: SearchPickerOption) => {
    const user = users.find((candidate) => candidate.id === option.id);
    if (user === undefined) return;
    onChoose(user);
    field.onChange(user.id);
    field.onBlur();
    setText('');
  };

  return (
    <FormField id={id} label="User" required error={error}>
      {chosen !== null && (
        <p id={chosenId} className="rounded-md bg-gray-50 px-2.5 py-1.5 text-sm [overflow-wrap:anywhere] text-gray-900">
          <span className="text-gray-500">Selected: </span>
          {userChoiceLabel(chosen)}
        </p>
      )}
      <SearchPicker
        id={id}
        listLabel="Matching users"
        text={text}
        onTextChange={setText}
        options={options}
        isSearching={text.trim() !== search || matches.isFetching}
        error={matches.isError && search === text.trim() ? matches.error : null}
        errorSubject="Users"
        onRetry={() => void matches.refetch()}
        emptyText="No matching users"
        limitReached={users.length >= USER_PICKER_LIMIT}
        selectedIds={chosen === null ? undefined : new Set([chosen.id])}
        onPick={handlePick}
        placeholder={chosen === null ? 'Search by name or email' : 'Search for another user'}
        disabled={disabled}
        autoFocus
        invalid={error !== undefined}
        required
        describedBy={[chosen === null ? undefined : chosenId, describedBy('userId', false, error !== undefined)].filter(Boolean).join(' ') || undefined}
      />
    </FormField>
  );
}

export interface UpdateUserRoleDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * 'Update User Role', opened by 'Add Role to User' (spec 002 §2.2): the chosen role becomes the user's role. The user
 * is searched for on the server, so the dialog is as quick with ten thousand users as with ten.
 */
export function UpdateUserRoleDialog({ open, onOpenChange }: UpdateUserRoleDialogProps) {
  const updateRole = useUpdateUserRole();
  const [chosen, setChosen] = useState<UserChoice | null>(null);
  const { control, handleSubmit } = useForm<UpdateRoleFormValues>({ resolver: zodResolver(schema), defaultValues: { userId: '', role: '' } });

  const handleValid = (values: UpdateRoleFormValues) => {
    const role = values.role;
    if (chosen === null || chosen.id !== values.userId || !isRole(role)) return;
    updateRole.mutate({ id: chosen.id, name: chosen.name, roles: [role] }, { onSuccess: () => onOpenChange(false) });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Update User Role"
      size="small"
      expandable={false}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={updateRole.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="update-user-role-form" isPending={updateRole.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id="update-user-role-form" noValidate onSubmit={handleSubmit(handleValid)} className="flex flex-col gap-3">
        <UserField control={control} chosen={chosen} onChoose={setChosen} disabled={updateRole.isPending} />
        <SelectField control={control} name="role" label="Role" options={ROLE_OPTIONS} required placeholder="Select a role…" />
      </form>
    </Dialog>
  );
}
