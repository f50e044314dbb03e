import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserSummary } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { usersKeys } from './keys';

export interface SetUserStateInput {
  user: Pick<UserSummary, 'id' | 'name'>;
  state: UserSummary['state'];
}

/** PATCH /identities?id=eq.{id} {state}: an inactive user cannot sign in, and their open sessions end at once. */
export async function setUserState({ user, state }: SetUserStateInput): Promise<void> {
  await silentDb.from('identities').update({ state }).eq('id', user.id).throwOnError();
}

export function useSetUserState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserState,
    onSuccess: async (_result, { user, state }) => {
      toastSuccess(`${user.name} ${state === 'active' ? 'activated' : 'deactivated'} successfully`);
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
    onError: toastError,
  });
}
