/** The address's query with `changes` applied: a value sets its parameter, null removes it (the default is implied). */
export function withParams(previous: URLSearchParams, changes: Readonly<Record<string, string | null>>): URLSearchParams {
  const next = new URLSearchParams(previous);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  return next;
}
