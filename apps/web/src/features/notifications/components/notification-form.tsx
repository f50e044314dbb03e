import { useForm } from 'react-hook-form';
import { TextField } from '@/components/forms/text-field';
import { errorMessage } from '@/components/toast/toast';
import { serverErrorField, type NotificationFormValues } from '../notification-form-model';
import { EventsField } from './events-field';
import { PropertiesField } from './properties-field';
import { RecipientField } from './recipient-field';
import { TemplateField } from './template-field';

export interface NotificationFormProps {
  formId: string;
  defaultValues: NotificationFormValues;
  /** Read-only: a notification from another source, or a user without write permission. */
  disabled: boolean;
  /** Rejects with the server's error when the save is refused; the form keeps what was typed either way. */
  onSubmit: (values: NotificationFormValues) => Promise<void>;
  /** The syntax of the stored title and template: Go templates for notifications applied from Mission Control YAML. */
  syntax?: 'liquid' | 'gotemplate';
}

const FILTER_HINT = 'A CEL expression over the event, e.g. check.type == "http". Empty sends every event.';
const TITLE_HINT = "The message's title, a template like the body. Empty uses the event's default title.";

export function NotificationForm({ formId, defaultValues, disabled, onSubmit, syntax = 'liquid' }: NotificationFormProps) {
  const { control, handleSubmit, setValue, setError } = useForm<NotificationFormValues>({ defaultValues, mode: 'onTouched' });

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      // The toast says it too; under the field it stays in sight while the user corrects it.
      const field = serverErrorField(error);
      const message = errorMessage(error);
      if (field === 'recipient') setError('recipientType', { type: 'server', message }, { shouldFocus: false });
      else if (field === 'customServices') setError('customServices', { type: 'server', message });
      else if (field !== null) setError(field, { type: 'server', message }, { shouldFocus: true });
    }
  });

  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
      <TextField control={control} name="title" label="Title" placeholder="e.g. {{ check.name }} is failing" hint={TITLE_HINT} readOnly={disabled} />
      <EventsField control={control} disabled={disabled} />
      <TextField control={control} name="filter" label="Filter" hint={FILTER_HINT} readOnly={disabled} />
      <RecipientField control={control} setValue={setValue} disabled={disabled} />
      <TemplateField control={control} disabled={disabled} syntax={syntax} />
      <PropertiesField control={control} disabled={disabled} />
    </form>
  );
}
