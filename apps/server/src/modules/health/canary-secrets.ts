import type pg from 'pg';
import { errors } from '../../platform/errors';
import { decryptSecret, encryptSecret } from '../../platform/secrets';
import { syncCanaryChecks } from './canary-sync';

/**
 * A secret of a canary spec as it is stored: the base64 of encryptSecret's output. It stays in place of the value it
 * hides, so every reader (data API, YAML editor, Spec tab) shows that a secret is set and nothing more, and an edit
 * that sends the envelope back keeps the secret without anyone typing it again.
 */
export interface SecretEnvelope {
  $encrypted: string;
}

/** Keys whose value is a secret wherever they appear (`secretKey` too: S3-style checks name their secret so). */
const SECRET_KEY = /(password|passwd|secret|secret[-_]?key|token|bearer|api[-_]?key|access[-_]?key|private[-_]?key|credentials?)$/i;
/**
 * Headers whose values are public by definition: content negotiation, caching and conditional requests, and how the
 * request is routed (ADR 0043). Every other header may carry a credential under a name nobody can predict
 * (X-Password, X-Auth-Pass, a vendor's key header), so its value is sealed.
 */
const PUBLIC_HEADERS = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-language',
  'content-type',
  'dnt',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'origin',
  'pragma',
  'range',
  'referer',
  'user-agent',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-requested-with',
]);
const isSecretHeader = (name: string): boolean => !PUBLIC_HEADERS.has(name.trim().toLowerCase());
const isSecretEnvName = (name: string): boolean => SECRET_KEY.test(name);
/** Request bodies of HTTP checks: often a login form or a token exchange, and never shown anywhere but the spec. */
const BODY_KEY = 'body';
/** `scheme://user:password@…` with a non-empty password. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:[^/?#@]+@/i;
const URL_KEYS = new Set(['url', 'connection']);

export type SpecSecretProblem = { kind: 'undecryptable'; path: string } | { kind: 'password-in-url'; path: string };

export interface SealedSpec<T> {
  spec: T;
  /** Plaintext values replaced by envelopes. */
  sealed: number;
  problems: SpecSecretProblem[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSecretEnvelope(value: unknown): value is SecretEnvelope {
  return isRecord(value) && typeof value.$encrypted === 'string' && Object.keys(value).length === 1;
}

export function sealSecret(key: Buffer, plaintext: string): SecretEnvelope {
  return { $encrypted: encryptSecret(key, plaintext).toString('base64') };
}

/** Throws when the envelope was not sealed under this key (another installation's, or tampered with). */
export function openSecret(key: Buffer, envelope: SecretEnvelope): string {
  return decryptSecret(key, Buffer.from(envelope.$encrypted, 'base64'));
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

class Sealer {
  sealed = 0;
  readonly problems: SpecSecretProblem[] = [];

  constructor(private readonly key: Buffer) {}

  /** Any value: envelopes are checked, secret positions inside it sealed, everything else copied. */
  walk(value: unknown, path: string): unknown {
    if (isSecretEnvelope(value)) return this.checkEnvelope(value, path);
    if (Array.isArray(value)) return value.map((item, index) => this.walk(item, join(path, index)));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      const childPath = join(path, name);
      // Labels are copied into every check row and shown as filters: they are metadata, never a place for a secret.
      if (name === 'labels') out[name] = child;
      else if (name === 'headers') out[name] = this.named(child, isSecretHeader, childPath);
      else if (name === 'env') out[name] = this.named(child, isSecretEnvName, childPath);
      else if (SECRET_KEY.test(name) || name === BODY_KEY) out[name] = this.secret(child, childPath);
      else if (URL_KEYS.has(name) && typeof child === 'string' && URL_WITH_PASSWORD.test(child)) {
        this.problems.push({ kind: 'password-in-url', path: childPath });
        out[name] = child;
      } else out[name] = this.walk(child, childPath);
    }
    return out;
  }

  /** A value in a secret position: a plain string or `{value}` is sealed; a reference (`valueFrom`) is left alone. */
  private secret(value: unknown, path: string): unknown {
    const plaintext = typeof value === 'string' ? value : isRecord(value) && typeof value.value === 'string' && value.valueFrom === undefined ? value.value : null;
    if (plaintext === null || plaintext === '') return this.walk(value, path);
    this.sealed += 1;
    return sealSecret(this.key, plaintext);
  }

  /** `headers` and `env`, as a map or as a `[{name, value}]` list: the entries whose name is secret. */
  private named(value: unknown, isSecretName: (name: string) => boolean, path: string): unknown {
    if (Array.isArray(value)) {
      return value.map((entry: unknown, index) => {
        const entryPath = join(path, index);
        if (!isRecord(entry) || typeof entry.name !== 'string' || !isSecretName(entry.name) || !('value' in entry)) return this.walk(entry, entryPath);
        return { ...entry, value: this.secret(entry.value, join(entryPath, 'value')) };
      });
    }
    if (!isRecord(value) || isSecretEnvelope(value)) return this.walk(value, path);
    return Object.fromEntries(
      Object.entries(value).map(([name, entry]) => [name, isSecretName(name) ? this.secret(entry, join(path, name)) : this.walk(entry, join(path, name))]),
    );
  }

  private checkEnvelope(envelope: SecretEnvelope, path: string): SecretEnvelope {
    try {
      openSecret(this.key, envelope);
    } catch {
      this.problems.push({ kind: 'undecryptable', path });
    }
    return envelope;
  }
}

/** Seals every plaintext secret of a spec and reports what cannot be stored as it is; never throws. */
export function sealSpecSecrets<T>(key: Buffer, spec: T): SealedSpec<T> {
  const sealer = new Sealer(key);
  const sealedSpec = sealer.walk(spec, '') as T;
  return { spec: sealedSpec, sealed: sealer.sealed, problems: sealer.problems };
}

/** The write path: the spec with its secrets sealed, or a 400 for an envelope of another key or a password in a URL. */
export function encryptSpecSecrets<T>(key: Buffer, spec: T): T {
  const { spec: sealed, problems } = sealSpecSecrets(key, spec);
  const [problem] = problems;
  if (problem === undefined) return sealed;
  throw problem.kind === 'undecryptable' ? errors.undecryptableSpecSecret(problem.path) : errors.passwordInUrl(problem.path);
}

export class SpecSecretError extends Error {
  constructor(readonly path: string) {
    super(`The secret at ${path} cannot be decrypted with this server's key; enter it again in the canary`);
    this.name = 'SpecSecretError';
  }
}

function open(key: Buffer, value: unknown, path: string): unknown {
  if (isSecretEnvelope(value)) {
    try {
      return openSecret(key, value);
    } catch {
      throw new SpecSecretError(path);
    }
  }
  if (Array.isArray(value)) return value.map((item, index) => open(key, item, join(path, index)));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, open(key, child, join(path, name))]));
}

/** The run path: every envelope replaced by its plaintext, just before a checker gets the spec. */
export function decryptSpecSecrets(key: Buffer, spec: Record<string, unknown>): Record<string, unknown> {
  return open(key, spec, '') as Record<string, unknown>;
}

export interface StoredSecretsReport {
  canaries: number;
  checks: number;
  /** Values that stay as they are: a password inside a URL, or an envelope this key cannot open. */
  problems: Array<SpecSecretProblem & { table: 'canaries' | 'checks'; id: string }>;
}

async function sealTable(
  pool: pg.Pool,
  key: Buffer,
  table: 'canaries' | 'checks',
  report: StoredSecretsReport,
): Promise<string[]> {
  const rows = await pool.query<{ id: string; spec: unknown }>(`select id, spec from ${table} where deleted_at is null and spec is not null`);
  const changed: string[] = [];
  for (const row of rows.rows) {
    const { spec, sealed, problems } = sealSpecSecrets(key, row.spec);
    report.problems.push(...problems.map((problem) => ({ ...problem, table, id: row.id })));
    if (sealed === 0) continue;
    // Compared with what was read, so an edit made meanwhile is never overwritten; that edit was sealed by its writer.
    const updated = await pool.query(`update ${table} set spec = $2 where id = $1 and spec = $3::jsonb`, [row.id, JSON.stringify(spec), JSON.stringify(row.spec)]);
    if ((updated.rowCount ?? 0) > 0) changed.push(row.id);
  }
  return changed;
}

/**
 * Seals plaintext secrets left in specs written before secrets were encrypted: canaries first, whose checks are then
 * synced from the sealed spec, then any check row that still holds plaintext (e.g. a spec that no longer validates).
 */
export async function sealStoredSpecSecrets(pool: pg.Pool, key: Buffer): Promise<StoredSecretsReport> {
  const report: StoredSecretsReport = { canaries: 0, checks: 0, problems: [] };
  const canaries = await sealTable(pool, key, 'canaries', report);
  for (const id of canaries) await syncCanaryChecks(pool, id, { reschedule: false });
  report.canaries = canaries.length;
  report.checks = (await sealTable(pool, key, 'checks', report)).length;
  return report;
}
