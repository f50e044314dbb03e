import { Tabs } from 'radix-ui';
import { useController, type Control } from 'react-hook-form';
import { describedBy, FormField, fieldIds } from '@/components/forms/form-field';
import { inputClass } from '@/components/forms/styles';
import { MarkdownView } from '@/components/markdown/markdown-view';
import type { NotificationFormValues } from '../notification-form-model';
import { TAB_TRIGGER } from './tab-styles';

export interface TemplateFieldProps {
  control: Control<NotificationFormValues>;
  disabled: boolean;
  /** Notifications applied from Mission Control YAML keep Go templates; the console's own are Liquid. */
  syntax?: 'liquid' | 'gotemplate';
}

const HINTS = {
  liquid: 'Markdown with Liquid tags over the event and its resource. Leave empty for the default message of each event.',
  gotemplate: 'Markdown with Go template actions over the event and its resource ({{.check.name}}, {{.permalink}}), as Mission Control writes them.',
} as const;

// A template's links point at other systems, never at a page of this app.
const keepLinksAsWritten = () => null;

export function TemplateField({ control, disabled, syntax = 'liquid' }: TemplateFieldProps) {
  const { field, fieldState } = useController({ control, name: 'template' });
  const { id } = fieldIds('template');
  const error = fieldState.error?.message;
  return (
    <FormField id={id} label="Template" hint={HINTS[syntax]} error={error}>
      <Tabs.Root defaultValue="write" className="flex flex-col gap-2">
        <Tabs.List aria-label="Template view" className="flex gap-1 border-b border-gray-200">
          <Tabs.Trigger value="write" className={TAB_TRIGGER}>
            Write
          </Tabs.Trigger>
          <Tabs.Trigger value="preview" className={TAB_TRIGGER}>
            Preview
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="write">
          <textarea
            id={id}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={field.onBlur}
            rows={6}
            readOnly={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('template', true, Boolean(error))}
            placeholder={'### {{ check.name }} is {{ check.status }}'}
            className={inputClass(Boolean(error), 'resize-y font-mono')}
          />
        </Tabs.Content>
        <Tabs.Content value="preview" className="min-h-24 rounded-md p-3 ring-1 ring-gray-200 ring-inset">
          {field.value.trim() === '' ? <p className="text-sm text-gray-500">Nothing to preview</p> : <MarkdownView source={field.value} resolveHref={keepLinksAsWritten} />}
        </Tabs.Content>
      </Tabs.Root>
    </FormField>
  );
}
