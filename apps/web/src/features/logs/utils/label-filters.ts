import { splitEscaped, unescapeFilterValue, type LogLine } from '@opsdeck/shared';

/** One label a user clicked to keep only the lines that carry it with that value. */
export interface LabelFilter {
  key: string;
  value: string;
}

function escapePart(text: string): string {
  return text.replace(/[\\=,]/g, (char) => `\\${char}`);
}

/**
 * `app=web,pod=web-1`: the URL form of the label filters. A backslash escapes `\`, `=` and `,` inside a key or value,
 * so any label round-trips through a shared link.
 */
export function encodeLabelFilters(filters: readonly LabelFilter[]): string {
  return filters.map(({ key, value }) => `${escapePart(key)}=${escapePart(value)}`).join(',');
}

/** Parses the URL form; an entry without an unescaped `=` or with an empty key is skipped, as are repeats. */
export function decodeLabelFilters(text: string | null): LabelFilter[] {
  const filters: LabelFilter[] = [];
  if (text === null || text === '') return filters;
  for (const entry of splitEscaped(text, ',')) {
    const [rawKey, ...rest] = splitEscaped(entry, '=');
    if (rawKey === undefined || rest.length === 0) continue;
    const key = unescapeFilterValue(rawKey);
    // A hand-written value may hold a bare '=' (a=b=c); it stays part of the value.
    const value = unescapeFilterValue(rest.join('='));
    if (key === '' || hasLabelFilter(filters, key, value)) continue;
    filters.push({ key, value });
  }
  return filters;
}

export function hasLabelFilter(filters: readonly LabelFilter[], key: string, value: string): boolean {
  return filters.some((filter) => filter.key === key && filter.value === value);
}

/**
 * The lines carrying every filter's label with its value. With no filters the same array comes back, so the table
 * and the selection keep their identity.
 */
export function filterLinesByLabels(lines: readonly LogLine[], filters: readonly LabelFilter[]): readonly LogLine[] {
  if (filters.length === 0) return lines;
  return lines.filter((line) => filters.every(({ key, value }) => Object.hasOwn(line.labels, key) && line.labels[key] === value));
}
