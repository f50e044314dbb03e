import { Duration } from '@marcbachmann/cel-js/evaluator';

/** Values handed to or returned by a CEL expression are at most this deep; deeper input is cut, deeper output refused. */
export const MAX_VALUE_DEPTH = 32;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A JSON-like value as CEL sees it: whole numbers become CEL ints (bigint), so `code == 200` and `count + 1` behave as
 * in canary-checker, where they come from Go ints. Dates, durations and byte arrays pass through; anything else that is
 * not data (functions, class instances) is dropped, so an expression only ever sees the data it was given.
 */
export function toCel(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint' || value === null) return value;
  if (value === undefined) return null;
  if (value instanceof Date || value instanceof Duration || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => toCel(item, depth + 1));
  if (isPlainRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined && typeof item !== 'function') out[key] = toCel(item, depth + 1);
    return out;
  }
  return null;
}

/** A CEL result as plain JSON data: ints become numbers, timestamps ISO text, durations Go-style text ("1h30m"). */
export function fromCel(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new Error(`the value is nested deeper than ${MAX_VALUE_DEPTH} levels`);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Duration) return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map((item: unknown) => fromCel(item, depth + 1));
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([key, item]) => [String(key), fromCel(item, depth + 1)]));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = fromCel(item, depth + 1);
    return out;
  }
  return String(value);
}

/** JSON text of a CEL value (what `.toJSON()` returns). */
export function celToJson(value: unknown, indent?: string): string {
  return JSON.stringify(fromCel(value), null, indent) ?? 'null';
}

/** How a CEL value reads as a message: strings as they are, everything else as JSON. */
export function celToText(value: unknown): string {
  const plain = fromCel(value);
  return typeof plain === 'string' ? plain : JSON.stringify(plain);
}
