import { COMMON_PASSWORDS } from './common-passwords';
import type { UiText } from './ui-nodes';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
/** A local part shorter than this ('al' of al@example.com) would refuse half of all passwords for containing it. */
const MIN_IDENTIFIER_PART = 4;

const COMMON = new Set(COMMON_PASSWORDS);
/** Digits, punctuation and spaces people wrap a common word in to satisfy a rule: 'Summer2024!', '!!dragon'. */
const DRESSING = /^[\d\W_]+|[\d\W_]+$/g;

/**
 * Message ids follow Kratos's numbering for the same refusals, so a client that translates by id keeps working; the
 * wording is ours. Each message goes under the `password` node of the flow.
 */
export const passwordPolicyMessages = {
  tooShort: (length: number): UiText => ({
    id: 4000032,
    text: `Use at least ${PASSWORD_MIN_LENGTH} characters for the password; this one has ${length}.`,
    type: 'error',
    context: { min_length: PASSWORD_MIN_LENGTH, actual_length: length },
  }),
  tooLong: (): UiText => ({
    id: 4000033,
    text: `Use at most ${PASSWORD_MAX_LENGTH} characters for the password.`,
    type: 'error',
    context: { max_length: PASSWORD_MAX_LENGTH },
  }),
  likeIdentifier: (): UiText => ({
    id: 4000031,
    text: 'The password must not be, or contain, your email address or its name part; pick something unrelated to it.',
    type: 'error',
  }),
  common: (): UiText => ({
    id: 4000034,
    text: 'This password is one of the most widely used ones and would be guessed quickly; pick a less common one.',
    type: 'error',
  }),
} as const;

/** The identifiers to keep out of a password: each given one, and an email's local part when it is long enough. */
function identifierParts(identifiers: readonly string[]): string[] {
  const parts = new Set<string>();
  for (const raw of identifiers) {
    const identifier = raw.trim().toLowerCase();
    if (identifier === '') continue;
    parts.add(identifier);
    const at = identifier.lastIndexOf('@');
    const local = at > 0 ? identifier.slice(0, at) : '';
    if ([...local].length >= MIN_IDENTIFIER_PART) parts.add(local);
  }
  return [...parts];
}

function isCommon(lower: string): boolean {
  if (COMMON.has(lower)) return true;
  const stem = lower.replace(DRESSING, '');
  return stem !== '' && COMMON.has(stem);
}

/**
 * What is wrong with a new password, as flow messages; empty when it may be used. Length counts characters as people
 * see them (code points), so an emoji is one. The checks are case-insensitive: 'Password1' is as weak as 'password1'.
 */
export function passwordPolicyProblems(password: string, identifiers: readonly string[]): UiText[] {
  const length = [...password].length;
  if (length > PASSWORD_MAX_LENGTH) return [passwordPolicyMessages.tooLong()];
  const problems: UiText[] = [];
  if (length < PASSWORD_MIN_LENGTH) problems.push(passwordPolicyMessages.tooShort(length));
  const lower = password.toLowerCase();
  // The other way round too: 'jane.doe1' is no secret for jane.doe1@example.com. Only for passwords long enough to pass
  // the length rule, or a short one would also be told it sits inside the address.
  const insideIdentifier = (part: string): boolean => length >= PASSWORD_MIN_LENGTH && part.includes(lower);
  if (lower !== '' && identifierParts(identifiers).some((part) => lower.includes(part) || insideIdentifier(part))) {
    problems.push(passwordPolicyMessages.likeIdentifier());
  }
  if (isCommon(lower)) problems.push(passwordPolicyMessages.common());
  return problems;
}
