import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { Dialog } from '@/components/dialog/dialog';
import { FormActions } from '@/components/form-actions/form-actions';
import { REQUIRED_MESSAGE } from '@/components/forms/messages';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { useSession } from '@/lib/auth/session';
import { useStateWithLatest } from '@/lib/use-state-with-latest';
import { isUiSource } from '@/lib/resource-origin/resource-origin';
import type { PlaybookRow } from '../../api/get-playbooks';
import { usePlaybookSchemaQuery } from '../../api/get-playbook-schema';
import { playbookFailure, useSavePlaybookMutation } from '../../api/save-playbook';
import { DeletePlaybookDialog } from './delete-playbook-dialog';
import { NEW_PLAYBOOK_SPEC, parseSpecText, specToText } from './playbook-spec-text';

interface EditorValues {
  name: string;
  title: string;
  category: string;
  icon: string;
  description: string;
}

export interface PlaybookEditorDialogProps {
  /** The playbook to edit; without it the dialog creates one. */
  playbook?: PlaybookRow;
  onClose: () => void;
  onDeleted?: () => void;
}

/** A pasted Mission Control resource names itself in metadata.name, which the server takes when Name is left blank. */
function namedBySpec(spec: Record<string, unknown> | null): boolean {
  const metadata = spec?.metadata;
  return typeof metadata === 'object' && metadata !== null && typeof (metadata as Record<string, unknown>).name === 'string';
}

function optional(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * Create or edit a playbook (spec 001 §2.5 "Playbook spec edit", §5): the name is fixed once created, the YAML spec is
 * checked in the editor against the server's playbook-spec schema, and a refused save keeps everything typed and says
 * why. A playbook defined outside the UI is shown read-only with where it comes from.
 */
export function PlaybookEditorDialog({ playbook, onClose, onDeleted }: PlaybookEditorDialogProps) {
  const isEditing = playbook !== undefined;
  const isReadOnly = playbook !== undefined && !isUiSource(playbook.source);
  const specLabelId = useId();
  const specErrorId = useId();
  const session = useSession();
  const schema = usePlaybookSchemaQuery();
  const save = useSavePlaybookMutation();
  const [specText, setSpecText, latestSpecText] = useStateWithLatest(() => (playbook === undefined ? NEW_PLAYBOOK_SPEC : specToText(playbook.spec)));
  const [specError, setSpecError] = useState<string | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const { control, handleSubmit, setError } = useForm<EditorValues>({
    mode: 'onTouched',
    defaultValues: {
      name: playbook?.name ?? '',
      title: playbook?.title ?? '',
      category: playbook?.category ?? '',
      icon: playbook?.icon ?? '',
      description: playbook?.description ?? '',
    },
  });
  const failure = save.error === null ? null : playbookFailure(save.error);
  const disabled = isReadOnly || save.isPending;

  const handleSave = (values: EditorValues) => {
    const parsed = parseSpecText(latestSpecText());
    if (!isEditing && values.name.trim() === '' && !namedBySpec(parsed.spec)) {
      setError('name', { message: REQUIRED_MESSAGE }, { shouldFocus: true });
      return;
    }
    setSpecError(parsed.error);
    if (parsed.spec === null) return;
    save.mutate(
      {
        id: playbook?.id,
        name: values.name.trim(),
        input: {
          title: optional(values.title),
          category: optional(values.category),
          icon: optional(values.icon),
          description: optional(values.description),
          spec: parsed.spec,
        },
        createdBy: session.data?.person.id ?? null,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <>
      <Dialog open onOpenChange={(open) => !open && onClose()} title={isEditing ? `Edit ${playbook.title ?? playbook.name}` : 'Create Playbook'} size="large">
        <form noValidate aria-label="Playbook" onSubmit={handleSubmit(handleSave)} className="flex flex-col gap-3">
          {isReadOnly && (
            <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
              Defined by {playbook.source}: read-only here. Change it where it is defined.
            </p>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              control={control}
              name="name"
              label="Name"
              hint={isEditing ? undefined : 'Fixed once created; taken from metadata.name of a pasted Playbook resource when left blank'}
              disabled={isEditing || save.isPending}
            />
            <TextField control={control} name="title" label="Title" disabled={disabled} />
            <TextField control={control} name="category" label="Category" disabled={disabled} />
            <TextField control={control} name="icon" label="Icon" disabled={disabled} />
          </div>
          <TextAreaField control={control} name="description" label="Description" rows={2} disabled={disabled} />
          <div className="flex flex-col gap-1">
            <span id={specLabelId} className="text-sm font-medium text-gray-800">
              Spec
            </span>
            <CodeEditor
              language="yaml"
              value={specText}
              onChange={(text) => {
                setSpecText(text);
                setSpecError(null);
              }}
              schema={schema.data}
              readOnly={disabled}
              rows={16}
              invalid={specError !== null}
              ariaLabelledBy={specLabelId}
              ariaDescribedBy={specError === null ? undefined : specErrorId}
            />
            {specError !== null && (
              <p id={specErrorId} role="alert" className="text-xs text-red-600">
                {specError}
              </p>
            )}
          </div>
          {failure !== null && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
              <p>Unable to update playbook spec: {failure.message}</p>
              {failure.details !== null && <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-red-800">{failure.details}</p>}
              {failure.hint !== null && <p className="mt-1 text-xs text-red-800">{failure.hint}</p>}
            </div>
          )}
          {!isReadOnly && (
            <FormActions
              isEditing={isEditing}
              isSaving={save.isPending}
              onCancel={onClose}
              onDelete={isEditing && onDeleted !== undefined ? () => setIsDeleting(true) : undefined}
            />
          )}
        </form>
      </Dialog>
      {isDeleting && playbook !== undefined && onDeleted !== undefined && (
        <DeletePlaybookDialog playbook={playbook} onClose={() => setIsDeleting(false)} onDeleted={onDeleted} />
      )}
    </>
  );
}
