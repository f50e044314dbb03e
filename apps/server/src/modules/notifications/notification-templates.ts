import { goTemplateProblem, renderGoTemplate } from '../../platform/go-template/render';
import { printTemplateValue, sandboxedLiquid } from '../../platform/sandboxed-liquid';
import type { EventFamily } from './notification-events';

/**
 * Titles and bodies are Liquid over the event and its resource, in the same sandbox as playbook templates, so a
 * notification cannot stall the delivery consumer; those applied from Mission Control YAML are Go templates, in the
 * step-bounded evaluator playbooks use.
 */
export const TEMPLATE_SYNTAXES = ['liquid', 'gotemplate'] as const;
export type TemplateSyntax = (typeof TEMPLATE_SYNTAXES)[number];

export function isTemplateSyntax(value: unknown): value is TemplateSyntax {
  return typeof value === 'string' && (TEMPLATE_SYNTAXES as readonly string[]).includes(value);
}

/** Longest rendered body, in characters; providers cut further to what they carry. */
const OUTPUT_LIMIT = 100_000;
/** Evaluation steps of one Go template: as many as a playbook's, far beyond any message yet bounded. */
const GO_STEP_LIMIT = 200_000;

const liquid = sandboxedLiquid('Notification templates');

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Why the text is not a template of that syntax, or null; parse only. */
export function checkTemplate(text: string, syntax: TemplateSyntax): string | null {
  if (syntax === 'gotemplate') return goTemplateProblem(text, [], 'all');
  try {
    liquid.parse(text);
    return null;
  } catch (error) {
    return firstLine(error);
  }
}

/**
 * Mission Control's names beside the console's: `permalink` is the link back (`url` here), `source_event` and
 * `event_time` the event's name and time.
 */
function goScope(scope: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const event = scope.event;
  const fields = typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : {};
  return { ...scope, permalink: scope.url, source_event: fields.name, event_time: fields.created_at };
}

/** Renders a title or body; throws with the first line of the template engine's message when it cannot. */
export async function renderTemplate(text: string, scope: Readonly<Record<string, unknown>>, syntax: TemplateSyntax = 'liquid'): Promise<string> {
  if (!text.includes('{') && !(syntax === 'gotemplate' && text.includes('$('))) return text;
  const rendered =
    syntax === 'gotemplate'
      ? renderGoTemplate(text, goScope(scope), { maxSteps: GO_STEP_LIMIT, maxOutput: OUTPUT_LIMIT, dollar: 'all' })
      : printTemplateValue(await liquid.parseAndRender(text, scope));
  return rendered.length > OUTPUT_LIMIT ? `${rendered.slice(0, OUTPUT_LIMIT)}…` : rendered;
}

export interface DefaultTemplate {
  title: string;
  body: string;
}

/** The other resources of the message's group (groupBy), under a heading, when there are any. */
function groupedSection(heading: string): string {
  return `{% if groupedResources.size > 0 %}**${heading}**\n{% for resource in groupedResources %}- {{ resource }}\n{% endfor %}\n{% endif %}`;
}

/**
 * Markdown per event family. Each reads `event` ({name, id, created_at, properties}), the family's resource, `url`
 * (the resource in the console) and `groupedResources` (the rest of its group, when the notification groups), and ends
 * with a link back.
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
      `${groupedSection('Grouped with this message')}[View the check in Opsdeck]({{ url }})`,
    ].join('\n'),
  },
  component: {
    title: 'Component {{ component.name }} is {{ component.status }}',
    body: [
      '**{{ component.name }}**{% if component.type %} ({{ component.type }}){% endif %} is now **{{ component.status }}**.',
      '{% if component.status_reason %}\n{{ component.status_reason }}\n{% endif %}',
      `${groupedSection('Also failing')}[View the component in Opsdeck]({{ url }})`,
    ].join('\n'),
  },
  config: {
    title: "{{ config.type }} {{ config.name }} {{ event.name | remove_first: 'config.' }}",
    body: [
      "**{{ config.name }}** ({{ config.type }}) was {% case event.name %}{% when 'config.created' %}created{% when 'config.updated' %}updated{% when 'config.deleted' %}deleted{% else %}reported {{ config.health }}{% endcase %}.",
      '',
      '{% if config.status %}- Status: {{ config.status }}\n{% endif %}{% if config.health %}- Health: {{ config.health }}\n{% endif %}',
      `${groupedSection('Also failing')}[View the config in Opsdeck]({{ url }})`,
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
