/** How long a search text may be: longer than any name the searched tables hold in practice, short enough to stay cheap. */
export const SEARCH_TEXT_MAX_LENGTH = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;

/**
 * The patterns one search text becomes, each bound as a value (never spliced into SQL): the text itself lower-cased
 * for the exact tier, LIKE patterns for the prefix and contains tiers (with `%`, `_` and `\` escaped, so a user's `%`
 * matches a percent sign and nothing else), and a regular expression for the word-prefix tier (with every regular
 * expression metacharacter escaped, so `a.b` matches the three characters it shows).
 */
export interface SearchPatterns {
  exact: string;
  prefix: string;
  wordPrefix: string;
  contains: string;
}

/** Trimmed, inner runs of white space collapsed to one space, and lower-cased the way PostgreSQL's lower() does for ASCII. */
export function normalizeSearchText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** True when the text holds a control character (NUL, escape, …), which no name holds and PostgreSQL refuses (NUL). */
export function hasControlCharacter(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what this looks for
  return /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, (character) => `\\${character}`);
}

export function searchPatterns(normalized: string): SearchPatterns {
  const like = escapeLike(normalized);
  return {
    exact: normalized,
    prefix: `${like}%`,
    // A word starts the name or follows a character that is not a letter or digit: `api` in `checkout-api`, `prod api`.
    wordPrefix: `(^|[^[:alnum:]])${escapeRegex(normalized)}`,
    contains: `%${like}%`,
  };
}
