import { useController, useFieldArray, useFormState, type Control, type UseFormSetValue } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/button/button';
import { inputClass } from '@/components/forms/styles';
import { connectionRef } from '@/lib/api/connection-refs';
import { useNotificationConnectionsQuery, usePeopleQuery, useTeamsQuery } from '../api/get-recipient-options';
import { RECIPIENT_TYPES, type NotificationFormValues, type RecipientType } from '../notification-form-model';

export interface RecipientFieldProps {
  control: Control<NotificationFormValues>;
  setValue: UseFormSetValue<NotificationFormValues>;
  disabled: boolean;
}

interface Choice {
  value: string;
  label: string;
}

/** The stored value stays selectable when the list lacks it (a deleted person, a connection this role cannot list). */
function withCurrent(choices: readonly Choice[], current: string): Choice[] {
  if (current === '' || choices.some((choice) => choice.value === current)) return [...choices];
  return [{ value: current, label: current }, ...choices];
}

interface ChoiceSelectProps {
  id: string;
  label: string;
  value: string;
  choices: readonly Choice[];
  disabled: boolean;
  isLoading: boolean;
  error?: string;
  onChange: (value: string) => void;
}

function ChoiceSelect({ id, label, value, choices, disabled, isLoading, error, onChange }: ChoiceSelectProps) {
  const errorId = `${id}-error`;
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass(Boolean(error))}
      >
        <option value="">{isLoading ? 'Loading…' : `Choose a ${label.toLowerCase()}`}</option>
        {withCurrent(choices, value).map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

function PersonSelect({ control, disabled }: Pick<RecipientFieldProps, 'control' | 'disabled'>) {
  const { field } = useController({ control, name: 'personId' });
  const people = usePeopleQuery(true);
  const choices = (people.data ?? []).map((person) => ({ value: person.id, label: person.name }));
  return <ChoiceSelect id="notification-person" label="Person" value={field.value} choices={choices} disabled={disabled} isLoading={people.isPending} onChange={field.onChange} />;
}

function TeamSelect({ control, disabled }: Pick<RecipientFieldProps, 'control' | 'disabled'>) {
  const { field } = useController({ control, name: 'teamId' });
  const teams = useTeamsQuery(true);
  const choices = (teams.data ?? []).map((team) => ({ value: team.id, label: team.name }));
  return <ChoiceSelect id="notification-team" label="Team" value={field.value} choices={choices} disabled={disabled} isLoading={teams.isPending} onChange={field.onChange} />;
}

function CustomServicesField({ control, disabled }: Pick<RecipientFieldProps, 'control' | 'disabled'>) {
  const { fields, append, remove } = useFieldArray({ control, name: 'customServices' });
  const { errors } = useFormState({ control, name: 'customServices' });
  // Only an editor picks a connection; reading notifications does not need the connections, which some roles may not list.
  const connections = useNotificationConnectionsQuery(!disabled);
  const choices = (connections.data ?? []).map((connection) => ({ value: connectionRef(connection), label: `${connection.name} (${connection.type})` }));
  const error = errors.customServices?.message;
  return (
    <div className="flex flex-col gap-2">
      {fields.length === 0 && <p className="text-sm text-gray-500">No connection yet: add the services this notification is sent to.</p>}
      {fields.map((item, index) => (
        <CustomServiceRow key={item.id} control={control} index={index} choices={choices} disabled={disabled} isLoading={connections.isPending} onRemove={() => remove(index)} />
      ))}
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
      {!disabled && (
        <Button variant="secondary" className="self-start" onClick={() => append({ connection: '', name: '' })}>
          <Plus aria-hidden="true" className="size-4" />
          Add connection
        </Button>
      )}
    </div>
  );
}

interface CustomServiceRowProps {
  control: Control<NotificationFormValues>;
  index: number;
  choices: readonly Choice[];
  disabled: boolean;
  isLoading: boolean;
  onRemove: () => void;
}

const CONNECTION_REQUIRED = 'Choose a connection';

function CustomServiceRow({ control, index, choices, disabled, isLoading, onRemove }: CustomServiceRowProps) {
  const connection = useController({
    control,
    name: `customServices.${index}.connection`,
    rules: { validate: (value: string) => value !== '' || CONNECTION_REQUIRED },
  });
  const name = useController({ control, name: `customServices.${index}.name` });
  const nameId = `notification-service-${index}-name`;
  return (
    <div className="flex flex-col gap-2 rounded-md p-2 ring-1 ring-gray-200 ring-inset sm:flex-row sm:items-end">
      <ChoiceSelect
        id={`notification-service-${index}-connection`}
        label="Connection"
        value={connection.field.value}
        choices={choices}
        disabled={disabled}
        isLoading={isLoading}
        error={connection.fieldState.error?.message}
        onChange={connection.field.onChange}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor={nameId} className="text-sm font-medium text-gray-800">
          Name
        </label>
        <input id={nameId} {...name.field} disabled={disabled} placeholder="e.g. on-call channel" className={inputClass(false)} />
      </div>
      {!disabled && (
        <Button variant="ghost" aria-label={`Remove connection ${index + 1}`} onClick={onRemove}>
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      )}
    </div>
  );
}

/** Spec 001 §4: one kind of recipient at a time; switching kind clears what was chosen for the others. */
export function RecipientField({ control, setValue, disabled }: RecipientFieldProps) {
  // A server refusal of the recipient as a whole is set on the type, the one field every recipient kind has.
  const { field, fieldState } = useController({ control, name: 'recipientType' });
  const recipientType = field.value;
  const recipientError = fieldState.error?.message;

  const handleTypeChange = (next: RecipientType) => {
    field.onChange(next);
    // Each kind's own field is cleared, so switching back never resurrects a recipient the user moved away from.
    setValue('personId', '', { shouldDirty: true });
    setValue('teamId', '', { shouldDirty: true });
    setValue('customServices', [], { shouldDirty: true });
  };

  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={recipientError ? 'notification-recipient-error' : undefined}>
      <legend className="text-sm font-medium text-gray-800">Recipient</legend>
      <div role="radiogroup" aria-label="Recipient type" className="flex flex-wrap gap-4">
        {RECIPIENT_TYPES.map((type) => (
          <label key={type.value} className="flex items-center gap-2 text-sm text-gray-800">
            <input
              type="radio"
              name="recipientType"
              value={type.value}
              checked={recipientType === type.value}
              disabled={disabled}
              onChange={() => handleTypeChange(type.value)}
              className="size-4"
            />
            {type.label}
          </label>
        ))}
      </div>
      {recipientType === 'person' && <PersonSelect control={control} disabled={disabled} />}
      {recipientType === 'team' && <TeamSelect control={control} disabled={disabled} />}
      {recipientType === 'others' && <CustomServicesField control={control} disabled={disabled} />}
      {recipientError && (
        <p id="notification-recipient-error" role="alert" className="text-xs text-red-600">
          {recipientError}
        </p>
      )}
    </fieldset>
  );
}
