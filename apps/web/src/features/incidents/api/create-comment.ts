import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { Comment, IncidentDetail, PersonRef } from './types';

export interface NewCommentInput {
  id: string;
  incidentId: string;
  hypothesisId: string;
  comment: string;
  author: PersonRef | null;
}

export async function createComment(input: NewCommentInput): Promise<void> {
  await db
    .from('comments')
    .insert({
      id: input.id,
      incident_id: input.incidentId,
      hypothesis_id: input.hypothesisId,
      comment: input.comment,
      created_by: input.author?.id ?? null,
    })
    .throwOnError();
}

/** Shows the comment at once and takes it back if the server refuses it; the guarded client toasts the reason. */
export function useCreateComment(incidentId: string) {
  const queryClient = useQueryClient();
  const key = incidentsKeys.detail(incidentId);
  return useMutation({
    mutationFn: createComment,
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      const optimistic: Comment = {
        id: input.id,
        incident_id: incidentId,
        hypothesis_id: input.hypothesisId,
        responder_id: null,
        comment: input.comment,
        created_by: input.author?.id ?? null,
        external_created_by: null,
        created_at: new Date().toISOString(),
        author: input.author,
        responder: null,
        pending: true,
      };
      queryClient.setQueryData<IncidentDetail | null>(key, (incident) => (incident ? { ...incident, comments: [...incident.comments, optimistic] } : incident));
      return { commentId: input.id };
    },
    onError: (_error, _input, context) => {
      if (!context) return;
      queryClient.setQueryData<IncidentDetail | null>(key, (incident) =>
        incident ? { ...incident, comments: incident.comments.filter((comment) => comment.id !== context.commentId) } : incident,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
