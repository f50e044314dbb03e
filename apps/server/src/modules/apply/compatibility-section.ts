import { CONNECTION_BLOCKS, CONNECTION_BLOCKS_NOT_RUN, CONNECTION_GENERIC_FIELDS } from './connection-document';
import { NOTIFICATION_RECIPIENT_FIELDS, NOTIFICATION_SPEC_FIELDS, type FieldRule } from './notification-document';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function ruleTable(heading: string, rules: Readonly<Record<string, FieldRule>>, prefix: string): string[] {
  const rows = Object.entries(rules).map(
    ([field, rule]) => `| \`${prefix}${field}\` | ${rule.runs ? 'runs' : '**refused** (`OD_NOTIFICATION_FIELD_NOT_RUN`)'} | ${cell(rule.note)} |`,
  );
  return ['', `### ${heading}`, '', '| Field | Verdict | What this server does |', '| --- | --- | --- |', ...rows];
}

/**
 * The Notification section of docs/compatibility.md, from the tables apply judges a Notification by
 * (notification-document.ts), so the page says exactly what an apply accepts and refuses.
 */
export function renderNotificationCompatibility(): string {
  return [...ruleTable('Spec fields', NOTIFICATION_SPEC_FIELDS, 'spec.'), ...ruleTable('Recipients', NOTIFICATION_RECIPIENT_FIELDS, 'spec.to.')].slice(1).join('\n');
}

/** The Connection section: each of Mission Control's typed blocks, the connection type it becomes and where each field goes. */
export function renderConnectionCompatibility(): string {
  const mapped = Object.entries(CONNECTION_BLOCKS).map(([block, mapping]) => {
    const fields = Object.entries(mapping.fields)
      .map(([field, target]) => `\`${field}\` → ${target}`)
      .join(', ');
    return `| \`spec.${block}\` | runs | Type \`${mapping.type}\`: ${fields}; any other field is refused |`;
  });
  const refused = Object.entries(CONNECTION_BLOCKS_NOT_RUN).map(([block, note]) => `| \`spec.${block}\` | **refused** (\`OD_CONNECTION_FIELD_NOT_RUN\`) | ${cell(note)} |`);
  const generic = Object.entries(CONNECTION_GENERIC_FIELDS)
    .map(([field, target]) => `\`${field}\` → ${target}`)
    .join(', ');
  return [
    '### Connection kinds',
    '',
    '| Field | Verdict | What this server does |',
    '| --- | --- | --- |',
    `| \`spec.type\` | runs | The generic form: a connection type of this server with ${generic} and \`properties\` |`,
    ...mapped,
    ...refused,
    '| `spec.properties` | runs | Stored as the connection\'s properties (text values) |',
    '| `…valueFrom` | **refused** (`OD_CONNECTION_FIELD_NOT_RUN`) | Reads a Kubernetes Secret or ConfigMap, which this server does not have: give the value inline (`value:` or plain), sealed when stored |',
  ].join('\n');
}
