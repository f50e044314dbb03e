import { PLAYBOOK_ACTION_TYPES, PLAYBOOK_PARAMETER_TYPES, PLAYBOOK_SPEC_SCHEMA } from '@opsdeck/shared';
import { PLAYBOOK_FIELD_BLOCKS, REFUSED_PARAMETER_TYPES, TRIGGERS_REFUSED, type PlaybookFieldBlock } from './spec';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The editor schema's node at `path` (keys into nested objects), or an empty one. */
function schemaAt(path: readonly string[]): Schema {
  let node: unknown = PLAYBOOK_SPEC_SCHEMA;
  for (const key of path) node = isSchema(node) ? node[key] : undefined;
  return isSchema(node) ? node : {};
}

/** The properties of a block of the editor schema, each with its description. */
export function schemaProperties(path: readonly string[]): Record<string, string> {
  const properties = schemaAt([...path, 'properties']);
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, isSchema(value) && typeof value.description === 'string' ? value.description : '']),
  );
}

/** Where each block of PLAYBOOK_FIELD_BLOCKS sits in the editor schema, and how the page names its fields. */
export const PLAYBOOK_SCHEMA_BLOCKS: ReadonlyArray<{ block: keyof typeof PLAYBOOK_FIELD_BLOCKS; heading: string; prefix: string; path: readonly string[] }> = [
  { block: 'spec', heading: 'Spec fields', prefix: 'spec.', path: ['$defs', 'spec'] },
  { block: 'action', heading: 'Action fields and types', prefix: 'actions[].', path: ['$defs', 'action'] },
  { block: 'exec', heading: '`exec` actions', prefix: 'exec.', path: ['$defs', 'action', 'properties', 'exec'] },
  { block: 'http', heading: '`http` actions', prefix: 'http.', path: ['$defs', 'action', 'properties', 'http'] },
  { block: 'awsSigV4', heading: '`http.awsSigV4`', prefix: 'http.awsSigV4.', path: ['$defs', 'action', 'properties', 'http', 'properties', 'awsSigV4'] },
  { block: 'sql', heading: '`sql` actions', prefix: 'sql.', path: ['$defs', 'action', 'properties', 'sql'] },
  { block: 'notification', heading: '`notification` actions', prefix: 'notification.', path: ['$defs', 'action', 'properties', 'notification'] },
];

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

const REFUSED = '**refused** (`OD_PLAYBOOK_SPEC`)';
const HEADER = ['| Field | Verdict | What this server does |', '| --- | --- | --- |'];

function blockTable(heading: string, prefix: string, block: PlaybookFieldBlock, described: Readonly<Record<string, string>>): string[] {
  const runs = [...block.runs].map((field) => `| \`${prefix}${field}\` | runs | ${cell(described[field] ?? '')} |`);
  const refused = Object.entries(block.refused).map(([field, note]) => `| \`${prefix}${field}\` | ${REFUSED} | ${cell(note)} |`);
  return ['', `### ${heading}`, '', ...HEADER, ...runs, ...refused];
}

/**
 * The Playbook section of docs/compatibility.md: each block's fields as the save judges them (spec.ts's field sets and
 * refusals), described by the editor's JSON Schema; the section's test holds the schema's fields equal to the save's.
 */
export function renderPlaybookCompatibility(): string {
  const blocks = PLAYBOOK_SCHEMA_BLOCKS.flatMap(({ block, heading, prefix, path }) => blockTable(heading, prefix, PLAYBOOK_FIELD_BLOCKS[block], schemaProperties(path)));
  const parameterTypes = [
    ...PLAYBOOK_PARAMETER_TYPES.map((type) => `| \`${type}\` | runs | A form control in the Run dialog; the value reaches templates as .params and scripts as PARAM_<NAME> |`),
    ...Object.entries(REFUSED_PARAMETER_TYPES).map(([type, note]) => `| \`${type}\` | ${REFUSED} | ${cell(note)} |`),
  ];
  const triggers = schemaProperties(['$defs', 'spec', 'properties', 'on']);
  const triggerRows = Object.entries(triggers).map(([kind, description]) =>
    Object.hasOwn(TRIGGERS_REFUSED, kind) ? `| \`spec.on.${kind}\` | ${REFUSED} | ${cell(TRIGGERS_REFUSED[kind] ?? '')} |` : `| \`spec.on.${kind}\` | runs | ${cell(description)} |`,
  );
  return [
    ...blocks.slice(1),
    '',
    '### Parameter types',
    '',
    ...HEADER,
    ...parameterTypes,
    '',
    '### Triggers (`spec.on`)',
    '',
    ...HEADER,
    ...triggerRows,
    '',
    `Actions run one of ${PLAYBOOK_ACTION_TYPES.map((type) => `\`${type}\``).join(', ')}; templates in their fields are Go templates with \`{{ }}\` and \`$( )\` actions (ADR 0071).`,
  ].join('\n');
}
