import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Where a PostgreSQL session is: the cluster's system identifier (shared by its replicas and by copies of its data
 * folder) and the database's oid inside it. Neither depends on how the server was addressed (a host name, an
 * address, a unix socket), and a connection string cannot change them.
 */
export interface DatabaseIdentity {
  system: string;
  database: string;
}

/** What the probes must never run user SQL in: this server's own database. */
export interface OwnDatabase {
  identity: DatabaseIdentity;
  /** The embedded database's socket folder (resolved), or null with DATABASE_URL. */
  socketDir: string | null;
}

export const OWN_DATABASE_MESSAGE = "Refusing to run a check against Opsdeck's own database";
export const OWN_CLUSTER_MESSAGE = "Refusing to run a check as a superuser of the PostgreSQL server that holds Opsdeck's own database";

interface IdentityRow {
  system: string | null;
  database: string | null;
  privileged: boolean | null;
}

/**
 * Schema-qualified, so that a search_path sent in the connection's startup options cannot substitute other
 * functions. A role that can run programs or touch files as the database server's user reaches every database of
 * that server, so it counts as privileged.
 */
const IDENTITY_SQL = `select (select system_identifier::text from pg_catalog.pg_control_system()) as system,
  (select oid::text from pg_catalog.pg_database where datname = pg_catalog.current_database()) as database,
  (select rolsuper from pg_catalog.pg_roles where rolname = current_user)
    or pg_catalog.pg_has_role(current_user, 'pg_execute_server_program', 'member')
    or pg_catalog.pg_has_role(current_user, 'pg_write_server_files', 'member')
    or pg_catalog.pg_has_role(current_user, 'pg_read_server_files', 'member') as privileged`;

const known = new WeakMap<pg.Pool, Promise<OwnDatabase>>();

async function resolvedDir(dir: string): Promise<string | null> {
  return realpath(dir).catch(() => null);
}

async function readOwnDatabase(pool: pg.Pool): Promise<OwnDatabase> {
  const result = await pool.query<IdentityRow>(IDENTITY_SQL);
  const row = result.rows[0];
  if (row?.system == null || row.database == null) throw new Error("Could not read the identity of Opsdeck's own database");
  const host = pool.options.host;
  const socketDir = typeof host === 'string' && host.startsWith('/') ? await resolvedDir(host) : null;
  return { identity: { system: row.system, database: row.database }, socketDir };
}

/** The identity of the database behind this pool, read once per pool. */
export function ownDatabase(pool: pg.Pool): Promise<OwnDatabase> {
  let entry = known.get(pool);
  if (entry === undefined) {
    entry = readOwnDatabase(pool);
    known.set(pool, entry);
    // A failed read (the database briefly away) is tried again by the next probe instead of failing every one.
    entry.catch(() => known.delete(pool));
  }
  return entry;
}

/**
 * Before connecting: a client aimed at the embedded database's socket folder, however the path is spelled, is
 * refused without touching the socket (PGlite has one backend that the app's pool is using).
 */
export async function refuseOwnSocket(client: pg.Client, own: OwnDatabase): Promise<void> {
  if (own.socketDir === null || !client.host.startsWith('/')) return;
  if ((await resolvedDir(client.host)) === own.socketDir) throw new Error(OWN_DATABASE_MESSAGE);
}

/**
 * After connecting and before any SQL of the user: fails when the session is in this server's own database, or in
 * another database of the same server with a role that reaches every database. An identity that cannot be read
 * refuses too, since nothing then shows that the target is elsewhere.
 */
export async function refuseOwnDatabase(client: pg.Client, own: OwnDatabase): Promise<void> {
  let row: IdentityRow | undefined;
  try {
    row = (await client.query<IdentityRow>(IDENTITY_SQL)).rows[0];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot verify that the target is not Opsdeck's own database: ${reason}`);
  }
  if (row?.system == null || row.database == null) throw new Error("Cannot verify that the target is not Opsdeck's own database");
  if (row.system !== own.identity.system) return;
  if (row.database === own.identity.database) throw new Error(OWN_DATABASE_MESSAGE);
  if (row.privileged === true) throw new Error(OWN_CLUSTER_MESSAGE);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function sameHost(a: string, b: string): boolean {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  return left === right || (LOOPBACK.has(left) && LOOPBACK.has(right));
}

function sameDir(a: string, b: string): boolean {
  const resolve = (dir: string): string => {
    try {
      return realpathSync(dir);
    } catch {
      return path.resolve(dir);
    }
  };
  return resolve(a) === resolve(b);
}

/**
 * The save-time courtesy of the guard above: true when a postgres URL plainly names this server's database (the
 * embedded socket folder, or DATABASE_URL's host, port and database), so the author hears it at once. Only the
 * probe's identity check is authoritative.
 */
export function namesOwnDatabase(pool: pg.Pool, url: string): boolean {
  let target: pg.Client;
  try {
    target = new pg.Client({ connectionString: url });
  } catch {
    return false;
  }
  const ownHost = pool.options.host;
  if (target.host.startsWith('/')) return typeof ownHost === 'string' && ownHost.startsWith('/') && sameDir(target.host, ownHost);
  const ownUrl = pool.options.connectionString;
  if (ownUrl === undefined) return false;
  const own = new pg.Client({ connectionString: ownUrl });
  return sameHost(own.host, target.host) && own.port === target.port && own.database === target.database;
}
