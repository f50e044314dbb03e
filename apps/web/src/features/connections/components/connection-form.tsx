import { useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { NumberField } from '@/components/forms/number-field';
import { SelectField } from '@/components/forms/select-field';
import { SwitchField } from '@/components/forms/switch-field';
import { TextField } from '@/components/forms/text-field';
import { useCreateConnection } from '../api/create-connection';
import { appliedOrigin } from '@/lib/resource-origin/resource-origin';
import { useDeleteConnection } from '../api/delete-connection';
import { useTestConnection, type ConnectionTestOutcome } from '../api/test-connection';
import type { Connection } from '../api/types';
import { useUpdateConnection } from '../api/update-connection';
import type { ConnectionFieldDefinition, ConnectionTypeDefinition } from '../connection-type-catalog';
import { CONNECTION_LIMITS, connectionFieldMaxLength } from '../connection-limits';
import { initialFormValues, isFieldVisible, isSecretSet, toConnectionInput, type ConnectionFormValues } from '../connection-form-model';
import { SecretSourceField } from './secret-source-field';
import { TestConnectionDialog } from './test-connection-dialog';

export interface ConnectionFormProps {
  definition: ConnectionTypeDefinition;
  /** The connection being edited; without one the form creates a connection. */
  connection?: Connection;
  /** Back to the type grid; offered only while creating. */
  onBack?: () => void;
  /** Called after a successful save or delete. */
  onDone: () => void;
}

interface ConnectionFieldProps {
  control: Control<ConnectionFormValues>;
  field: ConnectionFieldDefinition;
  connection: Connection | undefined;
  disabled: boolean;
}

function ConnectionField({ control, field, connection, disabled }: ConnectionFieldProps) {
  switch (field.input) {
    case 'secret':
    case 'multiline-secret':
      return (
        <SecretSourceField
          control={control}
          name={field.path}
          label={field.label}
          required={field.required}
          isSet={isSecretSet(field, connection)}
          multiline={field.input === 'multiline-secret'}
          placeholder={field.placeholder}
          maxLength={connectionFieldMaxLength(field.path) ?? undefined}
          disabled={disabled}
        />
      );
    case 'number':
      return <NumberField control={control} name={field.path} label={field.label} required={field.required} placeholder={field.placeholder} min={0} disabled={disabled} />;
    case 'select':
      return (
        <SelectField
          control={control}
          name={field.path}
          label={field.label}
          required={field.required}
          options={(field.options ?? []).map((option) => ({ value: option, label: option }))}
          disabled={disabled}
        />
      );
    case 'switch':
      return <SwitchField control={control} name={field.path} label={field.label} disabled={disabled} />;
    case 'text':
      return (
        <TextField
          control={control}
          name={field.path}
          label={field.label}
          required={field.required}
          placeholder={field.placeholder}
          hint={field.hint}
          maxLength={connectionFieldMaxLength(field.path) ?? undefined}
          disabled={disabled}
        />
      );
  }
}

/** The form of one connection type: its fields, Test Connection, Save (Update when editing) and Delete. */
export function ConnectionForm({ definition, connection, onBack, onDone }: ConnectionFormProps) {
  const isEditing = connection !== undefined;
  const { control, handleSubmit, formState } = useForm<ConnectionFormValues>({
    mode: 'onTouched',
    defaultValues: initialFormValues(definition, connection),
  });
  const values = useWatch({ control }) as ConnectionFormValues;
  const createConnection = useCreateConnection();
  const updateConnection = useUpdateConnection();
  const deleteConnection = useDeleteConnection();
  const testConnection = useTestConnection();
  const [testOutcome, setTestOutcome] = useState<ConnectionTestOutcome | null>(null);
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const isSaving = createConnection.isPending || updateConnection.isPending;
  // The server refuses console edits of an applied connection (OD_APPLIED_READ_ONLY); testing it as stored still works.
  const applied = connection === undefined ? null : appliedOrigin(connection.source);
  const locked = isSaving || applied !== null;

  const handleSave = (formValues: ConnectionFormValues) => {
    const input = toConnectionInput(definition, formValues, connection);
    if (connection) updateConnection.mutate({ id: connection.id, input }, { onSuccess: onDone });
    else createConnection.mutate(input, { onSuccess: onDone });
  };

  const handleTest = (formValues: ConnectionFormValues) => {
    // An unchanged saved connection is tested as stored; anything typed is tested as typed, stored secrets filling the gaps.
    const request =
      connection && !formState.isDirty
        ? { id: connection.id }
        : { input: { ...toConnectionInput(definition, formValues, connection), ...(connection ? { id: connection.id } : {}) } };
    testConnection.mutate(request, { onSuccess: setTestOutcome });
  };

  const handleDelete = () => {
    if (!connection) return;
    deleteConnection.mutate(connection.id, {
      onSuccess: () => {
        setIsConfirmingDelete(false);
        onDone();
      },
    });
  };

  const Icon = definition.icon;

  return (
    <form noValidate onSubmit={handleSubmit(handleSave)} aria-label={`${definition.label} connection`} className="flex min-h-0 flex-1 flex-col">
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-4 py-3">
        <p className="flex items-center gap-2 text-sm font-medium text-gray-700">
          <Icon aria-hidden="true" className="size-5 text-gray-500" />
          {definition.label}
        </p>
        <TextField control={control} name="name" label="Name" required maxLength={CONNECTION_LIMITS.name} disabled={isEditing || isSaving} autoFocus={!isEditing} />
        <TextField control={control} name="namespace" label="Namespace" required maxLength={CONNECTION_LIMITS.namespace} disabled={isEditing || isSaving} />
        {applied !== null && (
          <p role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            This connection was applied from {applied}: change the manifest and apply it again. It is read-only here.
          </p>
        )}
        {definition.fields
          .filter((field) => isFieldVisible(field, values))
          .map((field) => (
            <ConnectionField key={field.path} control={control} field={field} connection={connection} disabled={locked} />
          ))}
      </div>
      <footer className="flex items-center gap-2 border-t border-gray-200 px-4 py-3">
        {onBack && (
          <Button variant="ghost" onClick={onBack} disabled={isSaving}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back
          </Button>
        )}
        {connection && applied === null && (
          <Button variant="danger" onClick={() => setIsConfirmingDelete(true)} disabled={isSaving}>
            Delete
          </Button>
        )}
        <Button variant="secondary" className="ml-auto" onClick={handleSubmit(handleTest)} isPending={testConnection.isPending} disabled={isSaving}>
          Test Connection
        </Button>
        {applied === null && (
          <Button type="submit" isPending={isSaving}>
            {isEditing ? 'Update' : 'Save'}
          </Button>
        )}
      </footer>
      <TestConnectionDialog outcome={testOutcome} onClose={() => setTestOutcome(null)} />
      {connection && (
        <ConfirmDialog
          open={isConfirmingDelete}
          onOpenChange={setIsConfirmingDelete}
          title="Delete Connection"
          message={`Are you sure you want to delete the connection '${connection.name}'?`}
          confirmLabel="Delete"
          isPending={deleteConnection.isPending}
          onConfirm={handleDelete}
        />
      )}
    </form>
  );
}
