import { can, type Resource } from '@opsdeck/shared';

/**
 * Sealed secrets (`{"$encrypted": …}`, ADR 0041/0062) as a reader may see them. Whoever may write a resource gets its
 * envelopes, since the edit forms send them back untouched; everyone else gets `{"$encrypted": ""}`, which still says
 * that a secret is set, holds no ciphertext, and opens nowhere if it is written back (issue #31). The data API does
 * the same in SQL (data-api/plan/sealed-columns.ts, migration 0113); routes that answer specs from TypeScript use this.
 */

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines each key as an own property, so a `__proto__` key stays a key and sets no prototype. A string
  // under $encrypted is ciphertext wherever it sits, as in SQL: an envelope with extra keys is no exception.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === '$encrypted' && typeof item === 'string' ? '' : redact(item)]));
}

/** A copy of `value` with the ciphertext of every envelope in it emptied; nothing else changes. */
export function redactSecretEnvelopes<T>(value: T): T {
  return redact(value) as T;
}

/** True when these roles may write every one of `resources`, and so may read the envelopes they hold. */
export function mayReadSecretEnvelopes(roles: readonly string[], resources: readonly Resource[]): boolean {
  return resources.every((resource) => can(roles, resource, 'write'));
}

/** `value` as these roles may read it: as stored for writers of all of `resources`, else with its envelopes emptied. */
export function secretEnvelopesFor<T>(roles: readonly string[], resources: readonly Resource[], value: T): T {
  return mayReadSecretEnvelopes(roles, resources) ? value : redactSecretEnvelopes(value);
}
