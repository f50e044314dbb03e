import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { TOAST_DURATION_MS } from '@opsdeck/shared';
import { errorMessage, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { PLAYBOOK_SELECT, type PlaybookRow } from './get-playbooks';
import { playbookKeys } from './keys';

/** What the editor saves (spec 001 §7 "update (id, source, title, spec, category, description, icon)"). */
export interface PlaybookInput {
  title: string | null;
  category: string | null;
  icon: string | null;
  description: string | null;
  spec: Record<string, unknown>;
}

export interface SavePlaybookRequest {
  /** The playbook being edited; without it a new one named `name` is created. */
  id?: string;
  name: string;
  input: PlaybookInput;
  createdBy: string | null;
}

/** Creates or updates a playbook and answers the stored row; the server checks the spec and refuses a bad one. */
export async function savePlaybook({ id, name, input, createdBy }: SavePlaybookRequest): Promise<PlaybookRow> {
  const request =
    id === undefined
      ? silentDb.from('playbooks').insert({ ...input, name, source: 'UI', created_by: createdBy })
      : silentDb.from('playbooks').update(input).eq('id', id);
  const { data } = await request.select(PLAYBOOK_SELECT).throwOnError().overrideTypes<PlaybookRow[], { merge: false }>();
  const row = data[0];
  if (row === undefined) throw new Error('The playbook was not found; it may have been deleted');
  return row;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The server's message with its details and hint, from a data-API error (postgrest-js puts them on the error itself)
 * or from an ApiError (in its body): a refused spec names the field path in details.
 */
export function playbookFailure(error: unknown): { message: string; details: string | null; hint: string | null } {
  const source = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const body = typeof source.body === 'object' && source.body !== null ? (source.body as Record<string, unknown>) : source;
  return { message: errorMessage(error), details: text(body.details), hint: text(body.hint) };
}

/** Toasts a failed save or delete as spec 001 §8 words it: 'Unable to update playbook spec: <message>'. */
export function toastPlaybookFailure(verb: 'update' | 'delete', error: unknown): void {
  const { message, details } = playbookFailure(error);
  const title = `Unable to ${verb} playbook spec: ${message}`;
  toast.error(title, { id: title, duration: TOAST_DURATION_MS, ...(details === null ? {} : { description: details }) });
}

export function useSavePlaybookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePlaybook,
    onSuccess: async (row, { id }) => {
      toastSuccess(`${row.title ?? row.name} ${id === undefined ? 'created' : 'updated'} successfully`);
      await queryClient.invalidateQueries({ queryKey: playbookKeys.all });
    },
    onError: (error) => toastPlaybookFailure('update', error),
  });
}
