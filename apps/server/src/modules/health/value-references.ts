import type pg from 'pg';
import type { ValueReference } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { connectionUrlOf, leavesConnectionOrigin, originOf, type ResolvedConnection } from '../connections';
import { isInlineUrl } from './checkers/checker';
import { s3Endpoint } from './checkers/s3-listing';
import { CANARY_LAYOUT, CHECK_LAYOUT } from './canary-secrets';

/**
 * canary-checker's `valueFrom` (ADR 0075). Kubernetes keeps the secrets a canary names; this server keeps them in its
 * stored connections, so `secretKeyRef: {name, key}` reads the secret property `key` of the connection `name` in the
 * canary's namespace, and `configMapKeyRef` its plain property. A connection's values belong to its URL: one goes
 * only to a check whose address stays on that connection's origin, the rule a check naming the connection already
 * keeps (leavesConnectionOrigin). The save refuses a reference to an existing connection on another origin; the run
 * resolves every reference just before the checker gets the spec and fails the check, by name, when one cannot be
 * resolved: the connection is gone, lacks the key, or no longer shares the check's origin.
 */

export interface FoundReference {
  /** Where the reference sits, e.g. `http[0].headers[1].valueFrom`. */
  path: string;
  secret: boolean;
  name: string;
  key: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

function referenceOf(valueFrom: unknown, path: string): FoundReference | null {
  if (!isRecord(valueFrom)) return null;
  const ref = (isRecord(valueFrom.secretKeyRef) ? valueFrom.secretKeyRef : isRecord(valueFrom.configMapKeyRef) ? valueFrom.configMapKeyRef : null) as Partial<
    NonNullable<ValueReference['secretKeyRef']>
  > | null;
  if (ref === null || typeof ref.name !== 'string' || typeof ref.key !== 'string') return null;
  return { path, secret: isRecord(valueFrom.secretKeyRef), name: ref.name, key: ref.key };
}

/**
 * A copy of `value` with every reference replaced by what `fill` gives for it: a field `{valueFrom}` becomes the value
 * itself, a list entry `{name, valueFrom}` becomes `{name, value}`.
 */
function replaceReferences(value: unknown, path: string, fill: (found: FoundReference) => string): unknown {
  if (Array.isArray(value)) return value.map((item, index) => replaceReferences(item, join(path, index), fill));
  if (!isRecord(value)) return value;
  if ('valueFrom' in value) {
    const found = referenceOf(value.valueFrom, join(path, 'valueFrom'));
    if (found !== null) {
      if (typeof value.name !== 'string') return fill(found);
      return { ...Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'valueFrom')), value: fill(found) };
    }
  }
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, replaceReferences(child, join(path, key), fill)]));
}

/** Whether anything in `value` is a `valueFrom`: a walk that copies nothing, since almost no check holds one. */
function holdsReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsReference);
  if (!isRecord(value)) return false;
  return 'valueFrom' in value || Object.values(value).some(holdsReference);
}

/** The references one check entry holds, with their paths under `prefix`. */
export function referencesIn(entry: unknown, prefix = ''): FoundReference[] {
  if (!holdsReference(entry)) return [];
  const found: FoundReference[] = [];
  replaceReferences(entry, prefix, (reference) => {
    found.push(reference);
    return '';
  });
  return found;
}

/** How a reference names its connection: in the canary's namespace, or by name alone when the canary has none. */
function connectionReference(namespace: string | null | undefined, name: string): string {
  return namespace === null || namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/**
 * Where a check entry sends its requests: its url, endpoint or addr, else its connection (an inline URL or a stored
 * one); for a folder check on s3://, its awsConnection's endpoint or AWS's for its region.
 */
async function targetOf(entry: Record<string, unknown>, connectionUrl: (reference: string) => Promise<string | null | undefined>): Promise<string | null> {
  if (typeof entry.path === 'string' && entry.path.toLowerCase().startsWith('s3://')) {
    const aws = isRecord(entry.awsConnection) ? entry.awsConnection : {};
    if (typeof aws.endpoint === 'string' && aws.endpoint !== '') return aws.endpoint;
    return s3Endpoint(typeof aws.region === 'string' && aws.region !== '' ? aws.region : 'us-east-1');
  }
  for (const field of ['url', 'endpoint', 'addr'] as const) {
    const value = entry[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  const connection = entry.connection;
  if (typeof connection !== 'string' || connection.trim() === '') return null;
  if (isInlineUrl(connection.trim())) return connection.trim();
  return (await connectionUrl(connection)) ?? null;
}

/** An oauth2 check's username and password are its client credentials, sent to the token URL rather than to the check's address. */
function referenceTarget(entry: Record<string, unknown>, relativePath: string, checkTarget: string | null): string | null {
  const tokenUrl = isRecord(entry.oauth2) && typeof entry.oauth2.tokenURL === 'string' ? entry.oauth2.tokenURL : null;
  if (tokenUrl !== null && /^(username|password|authentication\.(username|password))\.valueFrom$/.test(relativePath)) return tokenUrl;
  return checkTarget;
}

function describeOrigin(url: string | null): string {
  return originOf(url) ?? 'none: the connection has no URL';
}

/**
 * The save-time rule: a reference to a connection that exists must come from a check on that connection's origin.
 * A connection not there yet (it may be created after the canary, as a Kubernetes secret may) is judged at run time.
 */
export async function checkValueReferences(pool: pg.Pool, spec: unknown, namespace: string | null | undefined, asCheckRow = false): Promise<void> {
  if (!isRecord(spec)) return;
  const layout = asCheckRow ? CHECK_LAYOUT : CANARY_LAYOUT;
  const urlOf = async (reference: string): Promise<string | null | undefined> => {
    try {
      return await connectionUrlOf(pool, reference);
    } catch {
      // An ambiguous name fails when the check runs, with the same words.
      return undefined;
    }
  };
  for (const part of layout.parts(spec)) {
    const references = referencesIn(part.value, part.path);
    if (references.length === 0) continue;
    const target = await targetOf(part.value, urlOf);
    for (const reference of references) {
      const url = await urlOf(connectionReference(namespace, reference.name));
      if (url === undefined) continue;
      const goesTo = referenceTarget(part.value, reference.path.slice(part.path.length).replace(/^\./, ''), target);
      if (goesTo === null || leavesConnectionOrigin(url, goesTo)) throw errors.valueFromOrigin(reference.path, reference.name, describeOrigin(url));
    }
  }
}

/** A reference this run could not resolve; the message names the field and the connection, never a value. */
export class ValueReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueReferenceError';
  }
}

function valueOf(connection: ResolvedConnection, reference: FoundReference): string | null {
  if (!reference.secret) return connection.properties[reference.key] ?? null;
  const stored = connection.secretProperties[reference.key];
  if (stored !== undefined) return stored;
  // The connection's own credential fields, under the names a Kubernetes basic-auth or TLS secret gives them.
  if (reference.key === 'username') return connection.username;
  if (reference.key === 'password') return connection.password;
  if (reference.key === 'certificate') return connection.certificate;
  return null;
}

export interface ResolvedReferences {
  spec: Record<string, unknown>;
  /** The secret values put in place, for the run to scrub from what it stores. */
  secrets: string[];
}

/**
 * The run path: every reference of one check's opened spec replaced by its value, after the checks above; the
 * connection's own resolution (`resolve`) lets the scheduler collect what it opens.
 */
export async function resolveValueReferences(
  spec: Record<string, unknown>,
  namespace: string | null | undefined,
  resolve: (reference: string) => Promise<ResolvedConnection>,
  connectionUrl: (reference: string) => Promise<string | null | undefined>,
): Promise<ResolvedReferences> {
  const references = referencesIn(spec);
  if (references.length === 0) return { spec, secrets: [] };
  const target = await targetOf(spec, connectionUrl);
  const connections = new Map<string, ResolvedConnection>();
  for (const name of new Set(references.map((reference) => reference.name))) {
    const reference = connectionReference(namespace, name);
    let connection: ResolvedConnection;
    try {
      connection = await resolve(reference);
    } catch (error) {
      const where = references.filter((found) => found.name === name).map((found) => found.path).join(', ');
      throw new ValueReferenceError(`${where} names the connection '${reference}': ${error instanceof Error ? error.message : String(error)}`);
    }
    connections.set(name, connection);
  }
  const values = new Map<string, string>();
  const secrets: string[] = [];
  for (const reference of references) {
    const connection = connections.get(reference.name);
    if (connection === undefined) continue;
    const goesTo = referenceTarget(spec, reference.path, target);
    if (goesTo === null) throw new ValueReferenceError(`${reference.path}: the check names no address, and values from a connection go only to its origin`);
    if (leavesConnectionOrigin(connection.url, goesTo)) {
      throw new ValueReferenceError(`${reference.path}: the values of connection '${reference.name}' go only to its origin (${describeOrigin(connection.url)}), not to ${originOf(goesTo) ?? goesTo}`);
    }
    const value = valueOf(connection, reference);
    if (value === null) {
      const what = reference.secret ? 'secret property' : 'property';
      throw new ValueReferenceError(`${reference.path}: the connection '${reference.name}' has no ${what} '${reference.key}'`);
    }
    values.set(reference.path, value);
    if (reference.secret) secrets.push(value);
  }
  return { spec: replaceReferences(spec, '', (found) => values.get(found.path) ?? '') as Record<string, unknown>, secrets };
}
