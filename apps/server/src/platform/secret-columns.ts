/**
 * Columns that hold secrets are treated as if they did not exist: never selected, filtered, ordered or written, and
 * never named in an error.
 */
export function isSecretColumn(name: string): boolean {
  return /(_encrypted|token_hash|password_hash)$/.test(name);
}
