export const REQUIRED_MESSAGE = 'This field is required';
export const NUMBER_MESSAGE = 'This field must be a number';

/** The server's own limit on a text field, said before the form is sent rather than as its 400. */
export function maxLengthMessage(max: number): string {
  return `Must be at most ${max.toLocaleString('en-US')} characters`;
}

/**
 * The validation rule shared by the text inputs: required when asked, and no longer than `maxLength` once trimmed,
 * since the forms trim what they send and the server measures what it receives.
 */
export function validateText(value: unknown, required: boolean, maxLength: number | undefined): true | string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (required && text === '') return REQUIRED_MESSAGE;
  if (maxLength !== undefined && text.length > maxLength) return maxLengthMessage(maxLength);
  return true;
}
