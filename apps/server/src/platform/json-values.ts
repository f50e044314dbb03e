/**
 * Lenient readers for parsed JSON and YAML (Kubernetes objects, kubeconfigs, spec entries): a missing or mistyped field
 * reads as empty instead of throwing, so one odd object costs its own fields and not the whole source.
 */
export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(record) : [];
}

/** A non-empty string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** One string or a list of them; empty strings and other values are dropped. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== '') : [];
}

/** The string-valued entries of an object (labels, annotations). */
export function stringMap(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(record(value)).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
