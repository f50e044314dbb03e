import { RUNNABLE_SCRAPER_KINDS, SCRAPER_EXAMPLE_SPEC, isRunnableScraperKind, isScraperKind, scraperRequiredFields, type RequiredScraperField } from '@opsdeck/shared';

/** What 'Add Scraper' starts from (packages/shared scrape-config.ts). */
export const EXAMPLE_SPEC = SCRAPER_EXAMPLE_SPEC;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value.trim() !== '';
}

function isSatisfied(entry: Record<string, unknown>, required: RequiredScraperField): boolean {
  return [required.field, ...(required.alternatives ?? [])].some((field) => isFilled(entry[field]));
}

function fieldName(required: RequiredScraperField): string {
  return [required.field, ...(required.alternatives ?? [])].join(' or ');
}

export interface SpecHint {
  /** The source entry, as the server names it in errors: `file[0]`. */
  where: string;
  message: string;
}

/**
 * Per source entry of a spec, the fields the server requires of it (those config-db itself needs; format and icon are
 * not among them, ADR 0072) it still lacks, and kinds this server will refuse to
 * save; what a schema cannot say as plainly. A pasted Mission Control resource is read through its `spec`.
 */
export function specHints(spec: Record<string, unknown>): SpecHint[] {
  const body = isRecord(spec.spec) ? spec.spec : spec;
  const hints: SpecHint[] = [];
  for (const [kind, entries] of Object.entries(body)) {
    if (!isScraperKind(kind)) continue;
    if (!isRunnableScraperKind(kind)) {
      hints.push({ where: kind, message: `This server does not run ${kind} scrapers; it runs ${RUNNABLE_SCRAPER_KINDS.join(', ')}.` });
      continue;
    }
    const list: unknown[] = Array.isArray(entries) ? entries : [entries];
    list.forEach((entry, index) => {
      const record = isRecord(entry) ? entry : {};
      const missing = scraperRequiredFields[kind].filter((required) => !isSatisfied(record, required)).map(fieldName);
      if (missing.length > 0) hints.push({ where: `${kind}[${index}]`, message: `Required: ${missing.join(', ')}` });
    });
  }
  return hints;
}

/** The required fields of each kind this server runs, for the note under the editor. */
export function requiredFieldsSummary(): string[] {
  return RUNNABLE_SCRAPER_KINDS.map((kind) => {
    const fields = scraperRequiredFields[kind].map(fieldName);
    return `${kind}: ${fields.length === 0 ? 'no required fields' : fields.join(', ')}`;
  });
}
