import { checkJsonDepth } from '../../platform/json-depth';
import { apiErrors } from '../api-errors';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as JSON: the plugin hands it over as text so that malformed JSON answers PostgREST's PGRST102. */
function parseJson(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  if (raw.trim() === '') return null;
  checkJsonDepth(raw);
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw apiErrors.invalidBody(error instanceof Error ? error.message : 'Malformed JSON');
  }
}

export interface InsertBody {
  /** The objects the body holds, for the write checks to see even when the body as a whole is refused. */
  rows: JsonRecord[];
  /** True for one object or an array of objects, the only shapes a POST may carry. */
  wellFormed: boolean;
}

/**
 * A POST body. A body of the wrong shape is refused only when the insert is planned, after the permission and write
 * checks, so that those answer first as they always have.
 */
export function parseInsertBody(raw: unknown): InsertBody {
  const body = parseJson(raw);
  if (isRecord(body)) return { rows: [body], wellFormed: true };
  if (Array.isArray(body)) {
    const rows = body.filter(isRecord);
    return { rows, wellFormed: rows.length === body.length };
  }
  return { rows: [], wellFormed: false };
}

export function parsePatchBody(raw: unknown): JsonRecord {
  const body = parseJson(raw);
  if (!isRecord(body)) throw apiErrors.invalidBody('PATCH needs a JSON object');
  return body;
}

/** The named arguments of a POST to a function; an empty body calls it without any. */
export function parseCallArguments(raw: unknown): JsonRecord {
  const body = parseJson(raw) ?? {};
  if (!isRecord(body)) throw apiErrors.invalidBody('Function arguments must be a JSON object');
  return body;
}
