import { parse, stringify } from 'yaml';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text for an object: nothing for an empty one, YAML otherwise (JSON is valid YAML, so either can be typed). */
export function objectToText(value: Record<string, unknown>): string {
  return Object.keys(value).length === 0 ? '' : stringify(value);
}

/** The object a YAML or JSON text holds; `{}` when blank, null when it is unparsable or not an object. */
export function parseObjectText(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = parse(text);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
