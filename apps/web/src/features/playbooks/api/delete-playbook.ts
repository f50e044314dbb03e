import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { playbookKeys } from './keys';
import { toastPlaybookFailure } from './save-playbook';

export interface DeletePlaybookRequest {
  id: string;
  /** Said in the success toast. */
  name: string;
}

/** Soft delete: the playbook keeps its runs and leaves every list (spec 001 §7 "soft delete with deleted_at"). */
export async function deletePlaybook({ id }: DeletePlaybookRequest): Promise<void> {
  await silentDb.from('playbooks').update({ deleted_at: new Date().toISOString() }).eq('id', id).throwOnError();
}

export function useDeletePlaybookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlaybook,
    onSuccess: async (_result, { name }) => {
      toastSuccess(`${name} deleted successfully`);
      await queryClient.invalidateQueries({ queryKey: playbookKeys.all });
    },
    onError: (error) => toastPlaybookFailure('delete', error),
  });
}
