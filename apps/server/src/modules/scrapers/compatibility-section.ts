import {
  RUNNABLE_SCRAPER_KINDS,
  SCRAPE_SPEC_FIELDS,
  SCRAPER_CHANGE_FIELDS,
  SCRAPER_CHANGE_MAPPING_FIELDS,
  SCRAPER_EXCLUDE_FIELDS,
  SCRAPER_KINDS,
  SCRAPER_MASK_FIELDS,
  SCRAPER_PAGINATION_FIELDS,
  SCRAPER_PROPERTY_FIELDS,
  SCRAPER_RELATIONSHIP_FIELDS,
  isRunnableScraperKind,
  scraperSourceFields,
  scraperTransformFields,
  type ScraperFieldRule,
  type ScraperFieldTable,
} from '@opsdeck/shared';

const VERDICTS: Readonly<Record<ScraperFieldRule['support'], string>> = { runs: 'runs', inert: 'inert: accepted and kept', refused: '**refused**' };

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function verdict(rule: ScraperFieldRule): string {
  if (rule.support === 'refused' && rule.inertWhen !== undefined) return `**refused** unless \`${String(rule.inertWhen)}\``;
  if (rule.values !== undefined) return `runs for ${rule.values.map((value) => `\`${value}\``).join(', ')}; other values **refused**`;
  return VERDICTS[rule.support];
}

function fieldTable(table: ScraperFieldTable, prefix = ''): string[] {
  const rows = Object.entries(table).map(([field, rule]) => `| \`${prefix}${field}\` | ${verdict(rule)} | ${cell(rule.note)} |`);
  return ['| Field | Verdict | What this server does |', '| --- | --- | --- |', ...rows];
}

/**
 * The ScrapeConfig section of docs/compatibility.md, written from the tables of packages/shared/src/scrape-config.ts
 * that the save rules (spec-fields.ts) judge every spec by, so the page says exactly what a save accepts and refuses.
 */
export function renderScrapeConfigCompatibility(): string {
  const kindRows = SCRAPER_KINDS.map((kind) =>
    isRunnableScraperKind(kind) ? `| \`${kind}\` | runs | fields below |` : `| \`${kind}\` | **refused** (\`OD_SCRAPER_KIND\`) | run it with a Mission Control agent |`,
  );
  const lines = [
    '### Source kinds',
    '',
    '| Kind | Verdict | Notes |',
    '| --- | --- | --- |',
    ...kindRows,
    '',
    '### Spec fields',
    '',
    'The keys of a ScrapeConfig `spec` beside its source lists. Any other key is refused (`OD_SCRAPER_FIELD`).',
    '',
    ...fieldTable(SCRAPE_SPEC_FIELDS),
  ];
  for (const kind of RUNNABLE_SCRAPER_KINDS) {
    lines.push('', `### \`${kind}\` sources`, '', ...fieldTable(scraperSourceFields(kind)), ...fieldTable(scraperTransformFields(kind), 'transform.').slice(2));
    if (kind === 'http') lines.push(...fieldTable(SCRAPER_PAGINATION_FIELDS, 'pagination.').slice(2));
  }
  const parts: Array<[string, ScraperFieldTable]> = [
    ['transform.exclude[]', SCRAPER_EXCLUDE_FIELDS],
    ['transform.mask[]', SCRAPER_MASK_FIELDS],
    ['transform.relationship[]', SCRAPER_RELATIONSHIP_FIELDS],
    ['transform.changes', SCRAPER_CHANGE_FIELDS],
    ['transform.changes.mapping[]', SCRAPER_CHANGE_MAPPING_FIELDS],
    ['properties[]', SCRAPER_PROPERTY_FIELDS],
  ];
  lines.push('', '### Inside transform and properties', '', 'The same for every kind that takes them.');
  for (const [name, table] of parts) lines.push('', ...fieldTable(table, `${name}.`));
  return lines.join('\n');
}
