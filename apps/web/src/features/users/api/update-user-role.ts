import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, UpdateRoleResponse } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { usersKeys } from './keys';

export interface UpdateUserRoleInput {
  id: string;
  name: string;
  roles: Role[];
}

/** POST /api/rbac/{id}/update_role: the user's roles become exactly these. */
export async function updateUserRole({ id, roles }: UpdateUserRoleInput): Promise<UpdateRoleResponse> {
  return requestJson<UpdateRoleResponse>(`/api/rbac/${encodeURIComponent(id)}/update_role`, { method: 'POST', json: { roles }, silent: true });
}

export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserRole,
    onSuccess: async (_result, { name }) => {
      toastSuccess(`${name} role updated successfully`);
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
    onError: toastError,
  });
}
