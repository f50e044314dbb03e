import { printTemplateValue, sandboxedLiquid } from '../../platform/sandboxed-liquid';
import type { EventFamily } from './notification-events';

/**
 * Titles and bodies are Liquid over the event and its resource, in the same sandbox as playbook templates, so a
 * notification cannot stall the delivery consumer.
 */
/** Longest rendered body, in characters; providers cut further to what they carry. */
const OUTPUT_LIMIT = 100_000;

const liquid = sandboxedLiquid('Notification templates');

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Why the text is not a template, or null; parse only. */
export function checkTemplate(text: string): string | null {
  try {
    liquid.parse(text);
    return null;
  } catch (error) {
    return firstLine(error);
  }
}

/** Renders a title or body; throws with the first line of Liquid's message when it cannot. */
export async function renderTemplate(text: string, scope: Readonly<Record<string, unknown>>): Promise<string> {
  if (!text.includes('{')) return text;
  const output: unknown = await liquid.parseAndRender(text, scope);
  const rendered = printTemplateValue(output);
  return rendered.length > OUTPUT_LIMIT ? `${rendered.slice(0, OUTPUT_LIMIT)}…` : rendered;
}

export interface DefaultTemplate {
  title: string;
  body: string;
}

/**
 * Markdown per event family. Each reads `event` ({name, id, created_at, properties}), the family's resource and `url`
 * (the resource in the console), and ends with a link back.
 */
export const DEFAULT_TEMPLATES: Readonly<Record<EventFamily, DefaultTemplate>> = {
  check: {
    title: "Check {{ check.name }} {% if event.name == 'check.failed' %}failed{% else %}passed{% endif %}",
    body: [
      "**{{ check.name }}** {% if event.name == 'check.failed' %}is failing{% else %}is passing again{% endif %}.",
      '',
      '- Type: {{ check.type }}',
      '- Status: {{ check.status }}{% if event.properties.previous_status %} (was {{ event.properties.previous_status }}){% endif %}',
      '{% if event.properties.error %}- Error: {{ event.properties.error }}\n{% endif %}{% if event.properties.message %}- Message: {{ event.properties.message }}\n{% endif %}',
      '[View the check in Opsdeck]({{ url }})',
    ].join('\n'),
  },
  component: {
    title: 'Component {{ component.name }} is {{ component.status }}',
    body: [
      '**{{ component.name }}**{% if component.type %} ({{ component.type }}){% endif %} is now **{{ component.status }}**.',
      '{% if component.status_reason %}\n{{ component.status_reason }}\n{% endif %}',
      '[View the component in Opsdeck]({{ url }})',
    ].join('\n'),
  },
  config: {
    title: "{{ config.type }} {{ config.name }} {{ event.name | remove_first: 'config.' }}",
    body: [
      "**{{ config.name }}** ({{ config.type }}) was {% case event.name %}{% when 'config.created' %}created{% when 'config.updated' %}updated{% when 'config.deleted' %}deleted{% else %}reported {{ config.health }}{% endcase %}.",
      '',
      '{% if config.status %}- Status: {{ config.status }}\n{% endif %}{% if config.health %}- Health: {{ config.health }}\n{% endif %}',
      '[View the config in Opsdeck]({{ url }})',
    ].join('\n'),
  },
  playbook: {
    title:
      "{% if event.name == 'playbook.approval.inserted' %}Run of {{ playbook.title | default: playbook.name }} approved{% else %}Approvers of {{ playbook.title | default: playbook.name }} changed{% endif %}",
    body: [
      "{% if event.name == 'playbook.approval.inserted' %}A run of **{{ playbook.title | default: playbook.name }}** was approved{% if event.properties.approver %} by {{ event.properties.approver }}{% endif %}; it is now {{ run.status }}.{% else %}Who may approve runs of **{{ playbook.title | default: playbook.name }}** changed.{% endif %}",
      '',
      '[View it in Opsdeck]({{ url }})',
    ].join('\n'),
  },
};
