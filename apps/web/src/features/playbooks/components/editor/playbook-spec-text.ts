import { parse, stringify } from 'yaml';

/** What a new playbook's editor starts with: every part of a spec, small enough to read at a glance. */
export const NEW_PLAYBOOK_SPEC = `# Where the playbook is offered: selectors of configs, components or checks.
configs:
  - types:
      - Kubernetes::Pod
parameters:
  - name: reason
    label: Reason
    type: text
    required: true
actions:
  # Each action is one of exec (a bash script: admins only), http, sql or notification.
  - name: request-restart
    timeout: 1m
    http:
      method: POST
      url: "https://example.com/pods/{{ config.name }}/restart"
      body: '{"reason": "{{ params.reason }}"}'
`;

export function specToText(spec: unknown): string {
  return spec === null || spec === undefined ? '' : stringify(spec);
}

export type SpecParse = { spec: Record<string, unknown>; error: null } | { spec: null; error: string };

/** The spec a YAML (or JSON) text holds, or why it holds none: the text is kept as typed either way. */
export function parseSpecText(text: string): SpecParse {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { spec: null, error: `The spec is not valid YAML: ${message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { spec: null, error: 'The spec must be a YAML object with actions' };
  return { spec: value as Record<string, unknown>, error: null };
}
