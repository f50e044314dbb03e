import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { usersKeys } from './keys';

/**
 * DELETE /identities?id=eq.{id}: the identity goes with its sessions and credentials, and the person is kept, marked
 * deleted, for the records that name them.
 */
export async function deleteUser(id: string): Promise<void> {
  await silentDb.from('identities').delete().eq('id', id).throwOnError();
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: async () => {
      toastSuccess('user deleted successfully');
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
    onError: toastError,
  });
}
