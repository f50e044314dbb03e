/**
 * Three-state filter values (spec 000 §4): exclude (-1), no filter (0), include (1).
 *
 * Two textual forms exist:
 * - the URL form, `value:state` pairs joined by commas (`nginx:1,redis:-1`), which keeps the state of every
 *   value so the toggle can be restored;
 * - the query form sent to the API, values joined by commas with exclusions prefixed by `!` (`nginx,!redis`).
 *
 * Escaping: a backslash escapes the next character. Inside a value, `\`, `:`, `,` are always written as
 * `\\`, `\:`, `\,`; in the query form a leading `!` that belongs to the value is written `\!`. Unescaping
 * drops the backslash and keeps the next character, so any string round-trips.
 */
export type TristateValue = -1 | 0 | 1;
export type TristateSelection = Readonly<Record<string, TristateValue>>;

export function isTristateValue(value: number): value is TristateValue {
  return value === -1 || value === 0 || value === 1;
}

export function escapeFilterValue(value: string): string {
  return value.replace(/[\\:,]/g, (char) => `\\${char}`);
}

/** Splits on unescaped `separator`, keeping escapes in the parts so they can be split again. */
export function splitEscaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (char === '\\' && index + 1 < text.length) {
      current += char + text.charAt(index + 1);
      index += 1;
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

export function unescapeFilterValue(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

/** URL form; values in the no-filter state are left out. */
export function encodeTristate(selection: TristateSelection): string {
  return Object.entries(selection)
    .filter(([, state]) => state !== 0)
    .map(([value, state]) => `${escapeFilterValue(value)}:${state}`)
    .join(',');
}

/** Parses the URL form; malformed pairs and unknown states are ignored. */
export function decodeTristate(text: string | null | undefined): Record<string, TristateValue> {
  const entries: [string, TristateValue][] = [];
  if (!text) return {};
  for (const pair of splitEscaped(text, ',')) {
    const parts = splitEscaped(pair, ':');
    if (parts.length !== 2) continue;
    const [rawValue = '', rawState = ''] = parts;
    const state = Number(rawState);
    if (rawState === '' || !isTristateValue(state) || state === 0) continue;
    entries.push([unescapeFilterValue(rawValue), state]);
  }
  // fromEntries defines own properties, so a value such as `__proto__` stays an ordinary key.
  return Object.fromEntries(entries);
}

/** Query form: included values as they are, excluded values with a `!` prefix. An empty value is not representable. */
export function tristateToQueryFilter(selection: TristateSelection): string {
  return Object.entries(selection)
    .filter(([, state]) => state !== 0)
    .map(([value, state]) => {
      const escaped = escapeFilterValue(value).replace(/^!/, '\\!');
      return state === -1 ? `!${escaped}` : escaped;
    })
    .join(',');
}

export function queryFilterToTristate(text: string | null | undefined): Record<string, TristateValue> {
  if (!text) return {};
  const entries = splitEscaped(text, ',')
    .filter((part) => part !== '')
    .map((part): [string, TristateValue] => {
      const excluded = part.startsWith('!');
      return [unescapeFilterValue(excluded ? part.slice(1) : part), excluded ? -1 : 1];
    });
  return Object.fromEntries(entries);
}

/** The next state after clicking `clicked`: clicking the active state resets it to no filter. */
export function toggleTristate(current: TristateValue, clicked: Exclude<TristateValue, 0>): TristateValue {
  return current === clicked ? 0 : clicked;
}
