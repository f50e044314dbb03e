/**
 * The error text of a failure the demo writes into a history on purpose, to show what one looks like: it says so, so
 * that a newcomer does not take a fresh install for a broken one (issue #34).
 */
export function seededFailure(text: string): string {
  return `Seeded demo failure: ${text}`;
}
