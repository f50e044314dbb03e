import { useController, type Control } from 'react-hook-form';
import { REQUIRED_MESSAGE } from '@/components/forms/messages';
import { NOTIFICATION_EVENTS } from '@opsdeck/shared';
import type { NotificationFormValues } from '../notification-form-model';

export interface EventsFieldProps {
  control: Control<NotificationFormValues>;
  disabled: boolean;
}

const ERROR_ID = 'notification-events-error';

/** The events as a group of checkboxes: every choice visible at once and reachable with Tab and Space. */
export function EventsField({ control, disabled }: EventsFieldProps) {
  const { field, fieldState } = useController({
    control,
    name: 'events',
    rules: { validate: (events: string[]) => events.length > 0 || REQUIRED_MESSAGE },
  });
  const error = fieldState.error?.message;
  const chosen = new Set(field.value);

  const handleToggle = (event: string, checked: boolean) => {
    // Kept in the catalogue's order whatever order they were ticked in, so saves do not reorder a stored list.
    const next = NOTIFICATION_EVENTS.filter((known) => (known === event ? checked : chosen.has(known)));
    const unknown = field.value.filter((value) => !(NOTIFICATION_EVENTS as readonly string[]).includes(value));
    field.onChange([...next, ...unknown]);
  };

  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={error ? ERROR_ID : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-gray-800">
        Events
        <span aria-hidden="true" className="ml-0.5 text-red-600">
          *
        </span>
      </legend>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 rounded-md p-2 ring-1 ring-gray-200 ring-inset sm:grid-cols-2">
        {NOTIFICATION_EVENTS.map((event) => (
          <label key={event} className="flex items-center gap-2 font-mono text-xs text-gray-800">
            <input
              type="checkbox"
              ref={event === NOTIFICATION_EVENTS[0] ? field.ref : undefined}
              checked={chosen.has(event)}
              disabled={disabled}
              onChange={(change) => handleToggle(event, change.target.checked)}
              onBlur={field.onBlur}
              className="size-4 rounded border-gray-300"
            />
            {event}
          </label>
        ))}
      </div>
      <p className="text-xs text-gray-500">
        Health events are sent when a check, component or catalog item changes health, not again while it stays the same. Send test sends a test message now.
      </p>
      {error && (
        <p id={ERROR_ID} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
