import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { isRole, truncateName, USER_FORM_MESSAGES, type Role, type UserSummary } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SelectField } from '@/components/forms/select-field';
import { useUpdateUserRole } from '../api/update-user-role';
import { ROLE_OPTIONS } from './role-options';

const schema = z.object({
  userId: z.string().min(1, USER_FORM_MESSAGES.user),
  role: z.string().refine((value): value is Role => isRole(value), USER_FORM_MESSAGES.role),
});
type UpdateRoleFormValues = z.input<typeof schema>;

export interface UpdateUserRoleDialogProps {
  users: readonly UserSummary[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * 'Update User Role', opened by 'Add Role to User' (spec 002 §2.2): the chosen role becomes the user's role. Names in
 * the picker are cut to 50 characters (spec 002 §9), the address beside them tells two alike apart.
 */
export function UpdateUserRoleDialog({ users, open, onOpenChange }: UpdateUserRoleDialogProps) {
  const updateRole = useUpdateUserRole();
  const { control, handleSubmit } = useForm<UpdateRoleFormValues>({ resolver: zodResolver(schema), defaultValues: { userId: '', role: '' } });
  const userOptions = useMemo(
    () => users.map((user) => ({ value: user.id, label: user.email === null ? truncateName(user.name) : `${truncateName(user.name)} (${user.email})` })),
    [users],
  );

  const handleValid = (values: UpdateRoleFormValues) => {
    const user = users.find((candidate) => candidate.id === values.userId);
    const role = values.role;
    if (user === undefined || !isRole(role)) return;
    updateRole.mutate({ id: user.id, name: user.name, roles: [role] }, { onSuccess: () => onOpenChange(false) });
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
        <SelectField control={control} name="userId" label="User" options={userOptions} required placeholder="Select a user…" />
        <SelectField control={control} name="role" label="Role" options={ROLE_OPTIONS} required placeholder="Select a role…" />
      </form>
    </Dialog>
  );
}
