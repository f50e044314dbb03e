import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { notificationsKeys } from './keys';
import type { NotificationInput } from './types';

export interface SaveNotificationVariables {
  /** Null for a new notification: spec 001 §4 decides create versus update by the presence of an id. */
  id: string | null;
  input: NotificationInput;
}

export async function saveNotification({ id, input }: SaveNotificationVariables): Promise<void> {
  if (id === null) {
    await silentDb.from('notifications').insert(input).throwOnError();
    return;
  }
  await silentDb.from('notifications').update(input).eq('id', id).throwOnError();
}

export function useSaveNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveNotification,
    onSuccess: async (_result, { id }) => {
      toastSuccess(id === null ? 'Notification created successfully' : 'Notification updated successfully');
      await queryClient.invalidateQueries({ queryKey: notificationsKeys.all });
    },
    onError: toastError,
  });
}
