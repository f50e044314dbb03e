import { CANARY_FIELD_RULES, CHECK_FIELD_RULES, CHECK_TYPES, CHECK_TYPES_NOT_RUN, type FieldRules } from '@opsdeck/shared';

const VERDICTS = { runs: 'runs', inert: 'inert: accepted and shown', refused: '**refused**' } as const;

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function fieldTable(rules: FieldRules): string[] {
  const rows = Object.entries(rules)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, rule]) => `| \`${path}\` | ${VERDICTS[rule.verdict]} | ${cell(rule.note)} |`);
  return ['| Field | Verdict | What this server does |', '| --- | --- | --- |', ...rows];
}

/**
 * The Canary section of docs/compatibility.md, written from check-catalogue.ts, the table the save path judges specs
 * by, so the page says exactly what a save accepts and refuses.
 */
export function renderCanaryCompatibility(): string {
  const typeRows = [
    ...CHECK_TYPES.map((type) => `| \`${type}\` | runs | ${Object.keys(CHECK_FIELD_RULES[type]).length} fields, below |`),
    ...Object.entries(CHECK_TYPES_NOT_RUN)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, what]) => `| \`${type}\` | **refused** (\`OD_CHECK_TYPE_NOT_RUN\`) | canary-checker's check that ${cell(what)} |`),
  ];
  const lines = [
    '### Check types',
    '',
    '| Check type | Verdict | Notes |',
    '| --- | --- | --- |',
    ...typeRows,
    '',
    '### Canary fields',
    '',
    "The keys of a Canary's `spec` beside its check lists. A key that is neither these nor a check type is refused (`OD_CANARY_SPEC`).",
    '',
    ...fieldTable(CANARY_FIELD_RULES),
  ];
  for (const type of CHECK_TYPES) {
    lines.push('', `### \`${type}\` checks`, '', ...fieldTable(CHECK_FIELD_RULES[type]));
  }
  return lines.join('\n');
}
