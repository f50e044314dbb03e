import type { TableRow } from '@opsdeck/shared';
import { db } from '@/lib/api/db';

/** Letters, digits, spaces and hyphens (INC-7) mean nothing to a regular expression or to the data API's filter grammar. */
const PLAIN = /^[\p{L}\p{N} -]$/u;

function hex(codePoint: number, digits: number): string {
  return codePoint.toString(16).padStart(digits, '0');
}

/**
 * The text as a PostgreSQL regular expression matching it literally: every other character becomes a `\u` escape
 * (`\U` beyond the basic plane). Nothing then reads as a wildcard (`%`, `_`, `*`) or breaks out of a data-API
 * `or=(…)` group (`,`, `(`, `)`, quotes), which a LIKE pattern could only dodge by dropping those characters.
 */
export function literalPattern(text: string): string {
  let pattern = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (PLAIN.test(char)) pattern += char;
    else pattern += codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
  }
  return pattern;
}

/**
 * The one incident text search: title or display id containing the text, ignoring case, as a data-API `or` filter;
 * null when there is nothing to search for.
 */
export function incidentSearchFilter(search: string): string | null {
  const text = search.trim();
  if (text === '') return null;
  const pattern = literalPattern(text);
  return `title.imatch.${pattern},incident_id.imatch.${pattern}`;
}

export type IncidentChoice = Pick<TableRow<'incidents'>, 'id' | 'incident_id' | 'title'>;

const INCIDENT_PICKER_LIMIT = 25;

/** The newest incidents matching the text, for a picker. */
export async function searchIncidentChoices(search: string, signal: AbortSignal): Promise<IncidentChoice[]> {
  let query = db.from('incidents').select('id,incident_id,title');
  const filter = incidentSearchFilter(search);
  if (filter !== null) query = query.or(filter);
  const { data } = await query.order('created_at', { ascending: false }).limit(INCIDENT_PICKER_LIMIT).abortSignal(signal).throwOnError();
  return data;
}
