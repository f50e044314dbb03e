import { isScraperKind } from '@opsdeck/shared';
import { openSpec, sealSpecOrRefuse, urlHoldsPassword, type SpecLayout } from '../../platform/secret-fields';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isResource(value: Record<string, unknown>): boolean {
  return value.kind === 'ScrapeConfig' || (typeof value.apiVersion === 'string' && value.spec !== undefined);
}

/** The bare spec of a column value that may be a whole resource; null when it is neither. */
export function bareSpec(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value)) return null;
  if (!isResource(value)) return value;
  return isRecord(value.spec) ? value.spec : null;
}

/** Each source entry with the path the errors name it by. */
export function entriesOf(spec: Record<string, unknown>): Array<{ kind: string; field: string; entry: Record<string, unknown> }> {
  const found: Array<{ kind: string; field: string; entry: Record<string, unknown> }> = [];
  for (const [kind, list] of Object.entries(spec)) {
    if (!isScraperKind(kind) || !Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (isRecord(entry)) found.push({ kind, field: `spec.${kind}[${index}]`, entry });
    });
  }
  return found;
}

/**
 * A ScrapeConfig, bare or as a resource: each source entry is one part. Beyond the shared rules, a user name is half
 * a credential, and a DSN with its password inline (Mission Control writes an sql source's in `connection`) is sealed
 * whole, since no part of it can be shown without the rest.
 */
export const SCRAPER_LAYOUT: SpecLayout = {
  kind: 'scraper',
  env: 'secret-names',
  parts(value) {
    const spec = bareSpec(value);
    if (spec === null) return [];
    return entriesOf(spec).map(({ field, entry }) => ({ path: spec === value ? field.slice('spec.'.length) : field, value: entry }));
  },
  extraSecret(relative, value) {
    if (relative === 'username' || relative === 'auth.username') return true;
    return (relative === 'connection' || relative === 'url') && typeof value === 'string' && urlHoldsPassword(value);
  },
};

/** One source entry as a source runs it: its secrets carry the scraper's binding. */
const SCRAPER_ENTRY_LAYOUT: SpecLayout = { ...SCRAPER_LAYOUT, parts: (entry) => [{ path: '', value: entry }] };

/**
 * The spec as stored: secrets sealed for this scraper and each source's destination (ADR 0043, 0062), so the data
 * API, the editor and job history only ever see `{"$encrypted": …}`. Sources open them with openScraperEntry.
 */
export function sealScraperSpec<T>(key: Buffer, scraperId: string, value: T): T {
  return sealSpecOrRefuse(key, SCRAPER_LAYOUT, scraperId, value).spec;
}

/** A source's entry with its secrets opened, for the one run; SpecSecretError when one does not open where it is. */
export function openScraperEntry(key: Buffer, scraperId: string, entry: Record<string, unknown>): Record<string, unknown> {
  return openSpec(key, SCRAPER_ENTRY_LAYOUT, scraperId, entry);
}

/** The whole spec opened, so a run knows every secret it must scrub from what it stores. */
export function openScraperSpec(key: Buffer, scraperId: string, spec: Record<string, unknown>): Record<string, unknown> {
  return openSpec(key, SCRAPER_LAYOUT, scraperId, spec);
}
