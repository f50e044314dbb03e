import { Button } from '@/components/button/button';

export interface FormActionsProps {
  isEditing: boolean;
  isSaving: boolean;
  /** Holds back Update, such as for a resource defined outside the UI. */
  submitDisabled?: boolean;
  onDelete?: () => void;
  onCancel?: () => void;
}

/** An edit form's footer: Delete apart on the left, then Cancel and Save (Update once the resource exists). */
export function FormActions({ isEditing, isSaving, submitDisabled, onDelete, onCancel }: FormActionsProps) {
  return (
    <footer className="flex flex-wrap items-center gap-2 border-t border-gray-200 pt-3">
      {onDelete && (
        <Button variant="danger" onClick={onDelete} disabled={isSaving}>
          Delete
        </Button>
      )}
      {onCancel && (
        <Button variant="secondary" className="ml-auto" onClick={onCancel} disabled={isSaving}>
          Cancel
        </Button>
      )}
      <Button type="submit" className={onCancel ? undefined : 'ml-auto'} isPending={isSaving} disabled={submitDisabled}>
        {isEditing ? 'Update' : 'Save'}
      </Button>
    </footer>
  );
}
