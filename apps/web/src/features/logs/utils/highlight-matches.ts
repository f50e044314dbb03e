/** A piece of a message: text as it is, and whether it is an occurrence of the searched text. */
export interface TextPart {
  text: string;
  match: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The text cut at each case-insensitive occurrence of `needle` (trimmed, as the logs call trims it), so a caller can
 * wrap the matches in elements: the text is never parsed as markup. Joined back, the parts are the text unchanged.
 */
export function splitMatches(text: string, needle: string): TextPart[] {
  const search = needle.trim();
  if (search === '' || text === '') return [{ text, match: false }];
  // A regular expression rather than toLowerCase(): lower-casing can change a string's length (İ), and with it the
  // indexes the cuts would be made at.
  const pattern = new RegExp(escapeRegExp(search), 'giu');
  const parts: TextPart[] = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    const at = found.index;
    if (at > last) parts.push({ text: text.slice(last, at), match: false });
    parts.push({ text: found[0], match: true });
    last = at + found[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts.length === 0 ? [{ text, match: false }] : parts;
}
