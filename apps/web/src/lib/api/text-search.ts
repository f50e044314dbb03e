/**
 * Free text searched with the data API's `ilike` inside an `or=(…)` group (docs/query-grammar.md).
 *
 * Two layers read what the user typed, and neither may take it for syntax:
 * - the filter grammar: `,` ends a condition, `(` `)` `[` `]` `{` `}` nest, `"` quotes, and `*` is the wildcard of
 *   `like`/`ilike` (turned into `%` wherever it stands, so it has no literal form);
 * - the LIKE pattern itself: `%` and `_` are wildcards and `\` escapes.
 * The LIKE characters are escaped with a backslash. The grammar's characters cannot be escaped (this data API keeps
 * the quotes of a quoted value inside an `or` group as part of it), so each stands for `_`, "any one character": the
 * filter keeps its shape, and a search for `a,b` still finds `a,b` (and, at worst, also `a;b`).
 */
const GRAMMAR_CHARACTERS = /[*,()[\]{}"]/g;
const LIKE_CHARACTERS = /[\\%_]/g;

/** The longest text searched; more than any name or address a person types, short enough for the URL limit. */
export const TEXT_SEARCH_MAX_LENGTH = 200;

/** `*text*` for `ilike`: rows whose column contains the text, ignoring case. */
export function containsPattern(text: string): string {
  const escaped = text.replace(LIKE_CHARACTERS, (character) => `\\${character}`).replace(GRAMMAR_CHARACTERS, '_');
  return `*${escaped}*`;
}

/**
 * The `or` filter matching rows where any of `columns` contains `text` (trimmed, case-insensitive), for postgrest-js
 * `.or()`: `name.ilike.*ada*,email.ilike.*ada*`. Null when there is nothing to search for.
 */
export function textSearchFilter(columns: readonly string[], text: string): string | null {
  const trimmed = [...text.trim()].slice(0, TEXT_SEARCH_MAX_LENGTH).join('');
  if (trimmed === '' || columns.length === 0) return null;
  const pattern = containsPattern(trimmed);
  return columns.map((column) => `${column}.ilike.${pattern}`).join(',');
}
