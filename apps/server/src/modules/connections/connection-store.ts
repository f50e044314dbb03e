import type pg from 'pg';
import { connectionPropertyDefaults, type ConnectionType, type PublicConnection } from '@opsdeck/shared';
import { decryptSecret, encryptSecret } from '../../platform/secrets';
import { mysqlDsnAsUrl, namesCredentials, placeCredentials, placeholderProblem } from '../../platform/credential-placeholders';
import { errors } from '../../platform/errors';
import { credentialUrlOf, leavesConnectionOrigin } from './connection-origin';

/** What the API accepts; a secret left out keeps the stored one, `null` clears it. */
export interface ConnectionRequestBody {
  name: string;
  namespace?: string | undefined;
  type: ConnectionType;
  url?: string | null | undefined;
  username?: string | null | undefined;
  password?: string | null | undefined;
  certificate?: string | null | undefined;
  insecure_tls?: boolean | undefined;
  properties?: Record<string, string> | undefined;
  secret_properties?: Record<string, string | null> | undefined;
}

/** A connection with its secrets decrypted, for checkers and connection tests only. */
export interface ResolvedConnection {
  id: string | null;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecureTls: boolean;
  properties: Record<string, string>;
  secretProperties: Record<string, string>;
}

/** The stored row: the public connection's columns, less the derived secret_properties_set, plus the sealed secrets. */
interface ConnectionRow extends Omit<PublicConnection, 'secret_properties_set'> {
  password_encrypted: Buffer | null;
  certificate_encrypted: Buffer | null;
  secret_properties_encrypted: Buffer | null;
}

const COLUMNS = `id, name, namespace, type, url, username, password_encrypted, certificate_encrypted, secret_properties_encrypted,
  password_set, certificate_set, insecure_tls, properties, source, created_by, created_at, updated_at`;

function decryptProperties(key: Buffer, stored: Buffer | null): Record<string, string> {
  if (stored === null) return {};
  return JSON.parse(decryptSecret(key, stored)) as Record<string, string>;
}

function toPublic(key: Buffer, row: ConnectionRow): PublicConnection {
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    url: row.url,
    username: row.username,
    insecure_tls: row.insecure_tls,
    properties: row.properties,
    password_set: row.password_set,
    certificate_set: row.certificate_set,
    secret_properties_set: Object.keys(decryptProperties(key, row.secret_properties_encrypted)).sort(),
    source: row.source,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toResolved(key: Buffer, row: ConnectionRow): ResolvedConnection {
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    url: row.url,
    username: row.username,
    password: row.password_encrypted === null ? null : decryptSecret(key, row.password_encrypted),
    certificate: row.certificate_encrypted === null ? null : decryptSecret(key, row.certificate_encrypted),
    insecureTls: row.insecure_tls,
    properties: row.properties,
    secretProperties: decryptProperties(key, row.secret_properties_encrypted),
  };
}

/**
 * A password typed into the URL (postgres://user:secret@host) would be returned by every read, so it is moved into
 * the encrypted password and the URL keeps only the user name.
 */
export function splitUrlCredentials(input: { url?: string | null | undefined; username?: string | null | undefined; password?: string | null | undefined }): {
  url: string | null | undefined;
  username: string | null | undefined;
  password: string | null | undefined;
} {
  const { url } = input;
  const unchanged = { url, username: input.username, password: input.password };
  if (url === undefined || url === null) return unchanged;
  // $(username):$(password) names the credentials rather than holding them; they are filled in at use, where they can be.
  const problem = placeholderProblem(url);
  if (problem !== null) throw errors.placeholderInUrl('url', problem);
  if (namesCredentials(url) || !/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(url)) return unchanged;
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return unchanged;
    const password = decodeURIComponent(parsed.password);
    const username = input.username ?? (parsed.username === '' ? input.username : decodeURIComponent(parsed.username));
    parsed.password = '';
    parsed.username = '';
    return { url: parsed.toString(), username, password: input.password ?? password };
  } catch {
    return unchanged;
  }
}

/** The URL with the connection's user name and password put back, for drivers that take one string. */
export function urlWithCredentials(connection: Pick<ResolvedConnection, 'url' | 'username' | 'password'>): string {
  const url = mysqlDsnAsUrl(connection.url ?? '') ?? connection.url ?? '';
  const placed = placeCredentials(url, connection.username, connection.password);
  if (placed !== null) return placed;
  if (connection.username === null && connection.password === null) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && connection.username !== null) parsed.username = encodeURIComponent(connection.username);
    if (parsed.password === '' && connection.password !== null) parsed.password = encodeURIComponent(connection.password);
    return parsed.toString();
  } catch {
    return url;
  }
}

function withDefaults(type: ConnectionType, properties: Record<string, string> | undefined): Record<string, string> {
  return { ...connectionPropertyDefaults(type), ...(properties ?? {}) };
}

/** A key with a value sets it, with null or '' removes it, and a key left out keeps the stored value. */
function mergeSecretProperties(stored: Record<string, string>, patch: Record<string, string | null> | undefined): Record<string, string> {
  const merged = new Map(Object.entries(stored));
  for (const [name, value] of Object.entries(patch ?? {})) {
    if (value === null || value === '') merged.delete(name);
    else merged.set(name, value);
  }
  return Object.fromEntries(merged);
}

function encryptOrNull(key: Buffer, value: string | null | undefined): Buffer | null {
  return value === undefined || value === null || value === '' ? null : encryptSecret(key, value);
}

export interface ListOptions {
  limit: number;
  offset: number;
  type?: string | undefined;
  query?: string | undefined;
}

export async function listConnections(pool: pg.Pool, key: Buffer, options: ListOptions): Promise<{ data: PublicConnection[]; total: number }> {
  const params: unknown[] = [options.type ?? null, options.query === undefined ? null : `%${options.query}%`, options.limit, options.offset];
  const result = await pool.query<ConnectionRow & { total: number }>(
    `select ${COLUMNS}, count(*) over ()::integer as total from connections
      where deleted_at is null and ($1::text is null or type = $1) and ($2::text is null or name ilike $2 or namespace ilike $2)
      order by created_at desc, id limit $3 offset $4`,
    params,
  );
  return { data: result.rows.map((row) => toPublic(key, row)), total: result.rows[0]?.total ?? 0 };
}

async function findRow(db: pg.Pool | pg.PoolClient, id: string): Promise<ConnectionRow | null> {
  const result = await db.query<ConnectionRow>(`select ${COLUMNS} from connections where id = $1 and deleted_at is null`, [id]);
  return result.rows[0] ?? null;
}

export async function getConnection(pool: pg.Pool, key: Buffer, id: string): Promise<PublicConnection | null> {
  const row = await findRow(pool, id);
  return row === null ? null : toPublic(key, row);
}

export async function createConnection(pool: pg.Pool, key: Buffer, input: ConnectionRequestBody, createdBy: string | null): Promise<PublicConnection> {
  const split = splitUrlCredentials(input);
  const secretProperties = Object.fromEntries(
    Object.entries(input.secret_properties ?? {}).filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== ''),
  );
  const result = await pool.query<ConnectionRow>(
    `insert into connections (name, namespace, type, url, username, password_encrypted, certificate_encrypted,
       secret_properties_encrypted, insecure_tls, properties, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
    [
      input.name,
      input.namespace ?? 'default',
      input.type,
      split.url ?? null,
      split.username ?? null,
      encryptOrNull(key, split.password),
      encryptOrNull(key, input.certificate),
      Object.keys(secretProperties).length === 0 ? null : encryptSecret(key, JSON.stringify(secretProperties)),
      input.insecure_tls ?? false,
      JSON.stringify(withDefaults(input.type, input.properties)),
      createdBy,
    ],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('insert returned no row');
  return toPublic(key, row);
}

/** Applies a partial update; returns null when the connection does not exist. */
export async function updateConnection(pool: pg.Pool, key: Buffer, id: string, patch: Partial<ConnectionRequestBody>): Promise<PublicConnection | null> {
  const current = await findRow(pool, id);
  if (current === null) return null;
  const split = splitUrlCredentials(patch);
  const type = patch.type ?? (current.type as ConnectionType);
  const secretProperties = mergeSecretProperties(decryptProperties(key, current.secret_properties_encrypted), patch.secret_properties);
  const password = split.password === undefined ? current.password_encrypted : encryptOrNull(key, split.password);
  const certificate = patch.certificate === undefined ? current.certificate_encrypted : encryptOrNull(key, patch.certificate);
  const result = await pool.query<ConnectionRow>(
    `update connections set name = $2, namespace = $3, type = $4, url = $5, username = $6, password_encrypted = $7,
       certificate_encrypted = $8, secret_properties_encrypted = $9, insecure_tls = $10, properties = $11
     where id = $1 and deleted_at is null returning ${COLUMNS}`,
    [
      id,
      patch.name ?? current.name,
      patch.namespace ?? current.namespace,
      type,
      split.url === undefined ? current.url : split.url,
      split.username === undefined ? current.username : split.username,
      password,
      certificate,
      Object.keys(secretProperties).length === 0 ? null : encryptSecret(key, JSON.stringify(secretProperties)),
      patch.insecure_tls ?? current.insecure_tls,
      JSON.stringify(patch.properties === undefined ? current.properties : withDefaults(type, patch.properties)),
    ],
  );
  const row = result.rows[0];
  return row === undefined ? null : toPublic(key, row);
}

export async function deleteConnection(pool: pg.Pool, id: string): Promise<boolean> {
  const result = await pool.query('update connections set deleted_at = now() where id = $1 and deleted_at is null', [id]);
  return (result.rowCount ?? 0) > 0;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Finds a connection by id, `connection://namespace/name`, `namespace/name` or a bare name (namespace 'default'
 * first, then any namespace when the name is unique).
 */
export async function resolveConnection(pool: pg.Pool, key: Buffer, reference: string): Promise<ResolvedConnection> {
  const row = await findByReference(pool, reference);
  if (row === null) throw new Error(`Connection '${reference}' not found`);
  return toResolved(key, row);
}

/** The URL of the connection a reference names, without opening its secrets; undefined when there is none. */
export async function connectionUrlOf(pool: pg.Pool, reference: string): Promise<string | null | undefined> {
  const row = await findByReference(pool, reference);
  return row === null ? undefined : credentialUrlOf(row);
}

/** The type of the connection a reference names, without opening its secrets; undefined when there is none. */
export async function connectionTypeOf(pool: pg.Pool, reference: string): Promise<string | undefined> {
  const row = await findByReference(pool, reference);
  return row === null ? undefined : row.type;
}

async function findByReference(pool: pg.Pool, reference: string): Promise<ConnectionRow | null> {
  const ref = reference.trim().replace(/^connection:\/\//, '');
  let result: pg.QueryResult<ConnectionRow>;
  if (UUID.test(ref)) {
    result = await pool.query<ConnectionRow>(`select ${COLUMNS} from connections where id = $1 and deleted_at is null`, [ref]);
  } else if (ref.includes('/')) {
    const [namespace, ...rest] = ref.split('/');
    result = await pool.query<ConnectionRow>(`select ${COLUMNS} from connections where namespace = $1 and name = $2 and deleted_at is null`, [
      namespace,
      rest.join('/'),
    ]);
  } else {
    result = await pool.query<ConnectionRow>(
      `select ${COLUMNS} from connections where name = $1 and deleted_at is null order by (namespace = 'default') desc, created_at limit 2`,
      [ref],
    );
    const [first, second] = result.rows;
    if (first !== undefined && second !== undefined && first.namespace !== 'default') {
      throw new Error(`Connection '${reference}' is ambiguous: name it as namespace/name`);
    }
  }
  return result.rows[0] ?? null;
}

/** The stored connection merged with an edited, unsaved form: secrets the form leaves out come from the store. */
export async function resolveForTest(pool: pg.Pool, key: Buffer, input: ConnectionRequestBody & { id?: string | undefined }): Promise<ResolvedConnection> {
  const stored = input.id === undefined ? null : await findRow(pool, input.id);
  const split = splitUrlCredentials(input);
  const url = split.url ?? stored?.url ?? null;
  // Stored credentials go only to the stored connection's own origin: a test against another address needs them typed.
  const sameTarget = stored !== null && (url === stored.url || !leavesConnectionOrigin(stored.url, url ?? ''));
  const base = stored === null || !sameTarget ? null : toResolved(key, stored);
  const secretProperties = mergeSecretProperties(base?.secretProperties ?? {}, input.secret_properties);
  return {
    id: stored?.id ?? null,
    name: input.name,
    namespace: input.namespace ?? 'default',
    type: input.type,
    url,
    username: split.username === undefined ? (base?.username ?? null) : split.username,
    password: split.password === undefined ? (base?.password ?? null) : split.password,
    certificate: input.certificate === undefined ? (base?.certificate ?? null) : input.certificate,
    insecureTls: input.insecure_tls ?? stored?.insecure_tls ?? false,
    properties: withDefaults(input.type, input.properties ?? stored?.properties),
    secretProperties,
  };
}

export async function loadConnectionForTest(pool: pg.Pool, key: Buffer, id: string): Promise<ResolvedConnection | null> {
  const row = await findRow(pool, id);
  return row === null ? null : toResolved(key, row);
}

/**
 * The columns a whole connection is stored as, for a writer that replaces it in one go (apply, ADR 0074): a password in
 * the URL moved into the sealed password, every secret sealed, the type's property defaults filled in. Nothing is kept
 * from a stored row, so an apply that moves the URL cannot carry an old password along.
 */
export function connectionColumns(key: Buffer, input: Omit<ConnectionRequestBody, 'name' | 'namespace'>): Record<string, unknown> {
  const split = splitUrlCredentials(input);
  return {
    type: input.type,
    url: split.url ?? null,
    username: split.username ?? null,
    password_encrypted: encryptOrNull(key, split.password),
    certificate_encrypted: encryptOrNull(key, input.certificate),
    secret_properties_encrypted: null,
    insecure_tls: input.insecure_tls ?? false,
    properties: withDefaults(input.type, input.properties),
  };
}
