/** Something@somewhere without spaces: lenient on purpose (admin@localhost is a real sign-in here); mail proves the rest. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.][^\s@]*$/;
/** Control characters and unpaired surrogates: PostgreSQL refuses a NUL in text and a lone surrogate in jsonb. */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'gu');

/** Identifiers (email addresses) are compared and stored trimmed and lower-case, whichever flow receives them. */
export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

/** Control characters have no place in names or addresses, and some of them cannot even be stored. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** What a refused form echoes back: what was typed, less control characters, which the stored flow (jsonb) cannot hold. */
export function printable(value: string): string {
  return value.replace(CONTROL_CHARACTERS, '');
}

export function isEmailAddress(value: string): boolean {
  return value.length <= 320 && EMAIL_SHAPE.test(value) && !value.endsWith('.') && !hasControlCharacters(value);
}
