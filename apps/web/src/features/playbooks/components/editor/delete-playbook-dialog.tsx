import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { useDeletePlaybookMutation } from '../../api/delete-playbook';

export interface DeletePlaybookDialogProps {
  playbook: { id: string; name: string; title: string | null };
  onClose: () => void;
  onDeleted: () => void;
}

/** Asks before a soft delete; a refusal is toasted and the dialog stays so the user can try again or cancel. */
export function DeletePlaybookDialog({ playbook, onClose, onDeleted }: DeletePlaybookDialogProps) {
  const remove = useDeletePlaybookMutation();
  const label = playbook.title ?? playbook.name;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete playbook"
      message={`Delete ${label}? It is no longer offered or runnable; its runs are kept.`}
      confirmLabel="Delete"
      isPending={remove.isPending}
      onConfirm={() => remove.mutate({ id: playbook.id, name: label }, { onSuccess: onDeleted })}
    />
  );
}
