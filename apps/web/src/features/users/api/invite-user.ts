import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserResponse, Role } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { usersKeys } from './keys';

export interface InviteUserInput {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
}

/** POST /api/auth/invite_user: a new address gets an account and an invitation mail, a known one only the role. */
export async function inviteUser(input: InviteUserInput): Promise<InviteUserResponse> {
  return requestJson<InviteUserResponse>('/api/auth/invite_user', { method: 'POST', json: input, silent: true });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: async (result, { firstName, lastName }) => {
      // Spec 002 §8: a user who existed already is only given the role, without a confirmation.
      if (!result.existing) toastSuccess(`${firstName} ${lastName} invited successfully`);
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
    onError: toastError,
  });
}
