import { useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ADMIN_ONLY_PROPERTY_PREFIXES, isAdminOnlyProperty } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { Dialog } from '@/components/dialog/dialog';
import { maxLengthMessage } from '@/components/forms/messages';
import { TextAreaField } from '@/components/forms/text-area-field';
import { TextField } from '@/components/forms/text-field';
import { toastError } from '@/components/toast/toast';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { useCreateFeatureFlag } from '../api/create-feature-flag';
import { useDeleteFeatureFlag } from '../api/delete-feature-flag';
import { useUpdateFeatureFlag } from '../api/update-feature-flag';
import type { FeatureFlag } from '../api/types';

export const MISSING_DETAILS_MESSAGE = 'please provide all details';

/** The server's limit on a flag's name (the properties_name_length constraint). */
export const FLAG_NAME_MAX_LENGTH = 255;

/** Said under the name when someone other than an administrator names a property only administrators may create. */
export const ADMIN_ONLY_NAME_MESSAGE = `Only administrators may create properties starting with ${ADMIN_ONLY_PROPERTY_PREFIXES.join(' ')}`;

const baseSchema = z.object({
  name: z.string().trim().min(1, MISSING_DETAILS_MESSAGE).max(FLAG_NAME_MAX_LENGTH, maxLengthMessage(FLAG_NAME_MAX_LENGTH)),
  value: z.string().trim().min(1, MISSING_DETAILS_MESSAGE),
  description: z.string(),
});
type FeatureFlagFormValues = z.infer<typeof baseSchema>;

/** The server refuses the admin-only names from anyone else (403 OD_PROPERTY_ADMIN_ONLY); the form says so first. */
function flagSchema(isAdmin: boolean) {
  if (isAdmin) return baseSchema;
  return baseSchema.refine((values) => !isAdminOnlyProperty(values.name.trim()), { message: ADMIN_ONLY_NAME_MESSAGE, path: ['name'] });
}

export interface FeatureFlagDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The flag being edited; without one the dialog adds a flag. */
  flag?: FeatureFlag;
}

/** Add or edit a flag. A flag with created_at exists already (spec 002 §4), so it is updated, not created. */
export function FeatureFlagDialog({ open, onOpenChange, flag }: FeatureFlagDialogProps) {
  const isExisting = Boolean(flag?.created_at);
  const session = useSession();
  const { isAdmin } = usePermissions();
  const createFlag = useCreateFeatureFlag();
  const updateFlag = useUpdateFeatureFlag();
  const deleteFlag = useDeleteFeatureFlag();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const { control, handleSubmit } = useForm<FeatureFlagFormValues>({
    resolver: zodResolver(flagSchema(isAdmin)),
    defaultValues: { name: flag?.name ?? '', value: flag?.value ?? '', description: flag?.description ?? '' },
  });

  const close = () => onOpenChange(false);

  const handleValid = (values: FeatureFlagFormValues) => {
    const input = { name: values.name.trim(), value: values.value.trim(), description: values.description.trim() };
    if (isExisting) updateFlag.mutate(input, { onSuccess: close });
    else createFlag.mutate({ ...input, createdBy: session.data?.person.id ?? null }, { onSuccess: close });
  };

  // Only a missing field is the spec's toast; any other problem is said under its field.
  const handleInvalid = (invalid: FieldErrors<FeatureFlagFormValues>) => {
    if (Object.values(invalid).some((error) => error?.message === MISSING_DETAILS_MESSAGE)) toastError(MISSING_DETAILS_MESSAGE);
  };

  const handleDelete = () => {
    if (!flag) return;
    deleteFlag.mutate(flag.name, {
      onSuccess: () => {
        setIsConfirmingDelete(false);
        close();
      },
    });
  };

  const isSaving = createFlag.isPending || updateFlag.isPending;

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title={isExisting ? 'Edit Feature Flag' : 'Add Feature Flag'}
        size="small"
        footer={
          <>
            {isExisting && (
              <Button variant="danger" className="mr-auto" onClick={() => setIsConfirmingDelete(true)} disabled={isSaving}>
                Delete
              </Button>
            )}
            <Button variant="secondary" onClick={close} disabled={isSaving}>
              Cancel
            </Button>
            <Button type="submit" form="feature-flag-form" isPending={isSaving}>
              {isExisting ? 'Update' : 'Save'}
            </Button>
          </>
        }
      >
        <form id="feature-flag-form" noValidate onSubmit={handleSubmit(handleValid, handleInvalid)} className="flex flex-col gap-3">
          <TextField control={control} name="name" label="Name" required readOnly={isExisting} autoFocus={!isExisting} />
          <TextField control={control} name="value" label="Value" required autoFocus={isExisting} />
          <TextAreaField control={control} name="description" label="Description" />
        </form>
      </Dialog>
      {flag && (
        <ConfirmDialog
          open={isConfirmingDelete}
          onOpenChange={setIsConfirmingDelete}
          title="Delete Feature Flag"
          message={`Are you sure you want to delete the feature flag '${flag.name}'?`}
          confirmLabel="Delete"
          isPending={deleteFlag.isPending}
          onConfirm={handleDelete}
        />
      )}
    </>
  );
}
