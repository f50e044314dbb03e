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
  // The page caches the incident under the id its route carried, which may be the display id.
  const updateIncident = (change: (incident: IncidentDetail) => IncidentDetail) =>
    queryClient.setQueriesData<IncidentDetail | null>({ queryKey: incidentsKeys.details() }, (incident) =>
      incident?.id === incidentId ? change(incident) : incident,
    );
  return useMutation({
    mutationFn: createComment,
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: incidentsKeys.details() });
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
      updateIncident((incident) => ({ ...incident, comments: [...incident.comments, optimistic] }));
      return { commentId: input.id };
    },
    onError: (_error, _input, context) => {
      if (!context) return;
      updateIncident((incident) => ({ ...incident, comments: incident.comments.filter((comment) => comment.id !== context.commentId) }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
