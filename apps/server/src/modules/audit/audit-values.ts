import { isSecretColumn } from '../../platform/secret-columns';
import { isSecretHeaderName } from '../../platform/secret-fields';

/**
 * What the audit trail keeps of a request's values. Secrets are never kept: a field whose name says it holds one
 * (password, secret, token, key, credential, private, cookie, authorization…) or that platform/secret-columns.ts knows
 * is kept as a field name only; sealed `{"$encrypted": …}` envelopes are dropped; a URL keeps no user info and no
 * secret-named query value; `Bearer …` and `odt_…` tokens inside any text are cut. Long texts and big bodies are
 * truncated so one bulk write cannot bloat the table.
 */
const SECRET_NAME =
  /passw(?:or)?d|passphrase|^pass$|^pwd$|secret|token|key|credential|private|cookie|authori[sz]ation|bearer|signature|certificate|^otp$|totp|webauthn|lookup_secret|session|csrf|^code$/i;
/** `name`/`value` pairs (HTTP headers, environment variables) whose name says the value is a secret. */
const PAIR_NAME = /passw(?:or)?d|secret|token|key|credential|private|cookie|authori[sz]ation|bearer|signature|auth/i;

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
const SECRET_QUERY = /([?&][^=&#\s]*(?:token|key|secret|passw(?:or)?d|signature|sig|auth)[^=&#\s]*=)[^&#\s]*/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const API_TOKEN = /\bodt_[A-Za-z0-9_-]+/g;

export const REDACTED = '[redacted]';
/** Characters of one text value that are kept. */
export const MAX_TEXT = 500;
/** The serialized size of `changes` beyond which only field names are kept. */
export const MAX_CHANGES_BYTES = 16_384;
/** Rows of a bulk write whose values are kept. */
export const MAX_ROWS = 20;
const MAX_DEPTH = 8;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || isSecretColumn(name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEnvelope(value: unknown): boolean {
  return isRecord(value) && '$encrypted' in value;
}

/** A text with its embedded credentials cut and its length capped. */
export function scrubText(text: string): string {
  const cut = text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(SECRET_QUERY, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`).replace(API_TOKEN, `odt_${REDACTED}`);
  return cut.length > MAX_TEXT ? `${cut.slice(0, MAX_TEXT)}…` : cut;
}

/** Request bodies (a login form, a token exchange) are sealed in specs; the trail keeps that one was given, never what. */
const SECRET_FIELDS = new Set(['body', 'templateBody']);

/**
 * Headers and environments as the spec sealer sees them (platform/secret-fields.ts): a header's value is kept only
 * when it is public by definition, an environment variable's never; both keep their names.
 */
function scrubNamed(value: unknown, keepValue: (name: string) => boolean): unknown {
  if (Array.isArray(value)) {
    return value.map((entry) => {
      if (!isRecord(entry) || typeof entry.name !== 'string') return null;
      return keepValue(entry.name) && typeof entry.value === 'string' ? { name: entry.name, value: scrubText(entry.value) } : { name: entry.name };
    });
  }
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) out[name] = keepValue(name) && typeof child === 'string' ? scrubText(child) : REDACTED;
  return out;
}

/** Any JSON value with its secrets removed; undefined when nothing of it may be kept. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.map((item) => (isEnvelope(item) ? null : (scrubValue(item, depth + 1) ?? null)));
  if (!isRecord(value) || isEnvelope(value)) return undefined;
  const pairName = typeof value.name === 'string' ? value.name : typeof value.key === 'string' ? value.key : null;
  const secretPair = pairName !== null && PAIR_NAME.test(pairName);
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    if (isSecretName(name) || isEnvelope(child) || SECRET_FIELDS.has(name)) continue;
    if (secretPair && (name === 'value' || name === 'valueFrom')) continue;
    const kept =
      name === 'headers' ? scrubNamed(child, (header) => !isSecretHeaderName(header)) : name === 'env' ? scrubNamed(child, () => false) : scrubValue(child, depth + 1);
    if (kept !== undefined) out[name] = kept;
  }
  return out;
}

/** The top-level fields a body names, in order, secret ones included (their names are kept, never their values). */
export function fieldsOf(rows: ReadonlyArray<unknown>): string[] {
  const fields = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const name of Object.keys(row)) fields.add(name);
  return [...fields].slice(0, 200);
}

/**
 * The `changes` kept for a body of one or more rows: the scrubbed row for one, the first MAX_ROWS scrubbed rows for
 * more; null when the body holds no object. Past MAX_CHANGES_BYTES only `{"$truncated": true}` stays (the field names
 * are in changed_fields).
 */
export function changesOf(rows: ReadonlyArray<unknown>): unknown {
  const objects = rows.filter(isRecord);
  if (objects.length === 0) return null;
  const kept = objects.length === 1 ? scrubValue(objects[0]) : objects.slice(0, MAX_ROWS).map((row) => scrubValue(row) ?? null);
  if (JSON.stringify(kept).length > MAX_CHANGES_BYTES) return { $truncated: true, rows: objects.length };
  return kept;
}
