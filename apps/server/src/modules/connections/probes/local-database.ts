import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { ownDatabase, type OwnDatabase } from './own-database';

/**
 * The admin-only property that lets checks, scrapers and connection tests reach databases on the server's own host.
 * Off by default: a local PostgreSQL or another Opsdeck's embedded database trusts whoever reaches its socket or
 * loopback port, and the identity check of own-database.ts only recognises this instance's database.
 */
export const ALLOW_LOCAL_DATABASE_PROPERTY = 'security.database.allow_local';

export const LOCAL_DATABASE_MESSAGE = "Refusing to connect to a database on Opsdeck's own host";

const ALLOW_HINT = `an admin may allow it by setting the property ${ALLOW_LOCAL_DATABASE_PROPERTY} to true`;

/** What a probe needs to know before it opens a database client on a user's behalf. */
export interface DatabaseGuard {
  own: OwnDatabase;
  allowLocal: boolean;
}

export async function localDatabasesAllowed(pool: pg.Pool): Promise<boolean> {
  const result = await pool.query<{ value: string | null }>('select value from properties where name = $1', [ALLOW_LOCAL_DATABASE_PROPERTY]);
  return result.rows[0]?.value?.trim().toLowerCase() === 'true';
}

/** Read at every use: an admin who turns the property off expects the next run to be refused. */
export async function databaseGuard(pool: pg.Pool): Promise<DatabaseGuard> {
  const [own, allowLocal] = await Promise.all([ownDatabase(pool), localDatabasesAllowed(pool)]);
  return { own, allowLocal };
}

/**
 * Loopback, and the unspecified addresses, which Linux connects to the host itself. IPv4-mapped IPv6 addresses
 * (`::ffff:127.0.0.1`) are matched by the IPv4 rules.
 */
function loopbackList(): net.BlockList {
  const list = new net.BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addSubnet('0.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addAddress('::', 'ipv6');
  return list;
}

const LOOPBACK = loopbackList();

function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const version = net.isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/**
 * True for a loopback or unspecified address, and for an address of one of this host's interfaces: a database that
 * listens on all interfaces is as reachable through the host's LAN address as through 127.0.0.1.
 */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = familyOf(bare);
  if (family === null) return false;
  if (LOOPBACK.check(bare, family)) return true;
  const own = new net.BlockList();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) own.addAddress(entry.address.replace(/%.*$/, ''), entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
  }
  return own.check(bare, family);
}

/** `localhost` and the `.localhost` names that resolvers answer with loopback without asking DNS (RFC 6761). */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** True when a host says without any lookup that it is this host: a socket folder, a localhost name or a local address. */
export function isPlainlyLocalHost(host: string): boolean {
  return host === '' || host.startsWith('/') || isLocalhostName(host) || isLocalAddress(host);
}

export type LookupAll = (host: string) => Promise<Array<{ address: string }>>;

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * The address a database client must connect to: the host resolved once, refused when any of its addresses is local
 * (a name that answers with both a public and a loopback address is a name an attacker can steer), else the first.
 */
export async function checkedAddress(host: string, lookup: LookupAll = systemLookup): Promise<string> {
  if (host.startsWith('/')) throw new Error(`${LOCAL_DATABASE_MESSAGE}: a Unix socket is a database on this host; ${ALLOW_HINT}`);
  if (host === '' || isLocalhostName(host)) throw new Error(`${LOCAL_DATABASE_MESSAGE}: ${host || 'localhost'} is this host; ${ALLOW_HINT}`);
  const literal = host.replace(/^\[|\]$/g, '');
  const addresses = familyOf(literal) === null ? (await lookup(host)).map((entry) => entry.address) : [literal];
  const [first] = addresses;
  if (first === undefined) throw new Error(`${host} has no address`);
  if (addresses.some(isLocalAddress)) throw new Error(`${LOCAL_DATABASE_MESSAGE}: ${host} is an address of this host (loopback or one of its own); ${ALLOW_HINT}`);
  return first;
}

/**
 * A socket that connects to `address` whatever host the driver passes, so the name checked above cannot resolve
 * elsewhere (DNS rebinding) when the driver looks it up again. The driver keeps using the name for TLS (SNI and the
 * certificate check).
 */
export function pinnedSocketFactory(address: string): () => net.Socket {
  return () => {
    const socket = new net.Socket();
    const connect = socket.connect.bind(socket);
    socket.connect = ((port: number) => connect(port, address)) as typeof socket.connect;
    return socket;
  };
}

/**
 * The pg client settings for a user's target: unchanged when local databases are allowed; otherwise a Unix socket or
 * a local address is refused before any connection is made, and the client is pinned to the checked address.
 */
export async function guardedPostgresConfig(config: pg.ClientConfig, allowLocal: boolean): Promise<pg.ClientConfig> {
  if (allowLocal) return config;
  // The host pg itself would use: a `host` query parameter, a `socket:` URL and PGHOST all count.
  const address = await checkedAddress(new pg.Client(config).host);
  return { ...config, stream: pinnedSocketFactory(address) };
}

/** True when a postgres URL plainly names this host (for the save-time refusal). */
export function postgresUrlIsPlainlyLocal(url: string): boolean {
  try {
    return isPlainlyLocalHost(new pg.Client({ connectionString: url }).host);
  } catch {
    return false;
  }
}

/** Where a mysql URL leads, as mysql2 reads it: its host (localhost when empty) and port, or a `socketPath` parameter. */
function mysqlEndpoint(url: string): { host: string; port: number } | { socket: string } {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('socketPath');
  if (socket !== null && socket !== '') return { socket };
  const host = decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, ''));
  return { host: host === '' ? 'localhost' : host, port: Number.parseInt(parsed.port, 10) || 3306 };
}

/** True when a mysql URL plainly names this host (for the save-time refusal). */
export function mysqlUrlIsPlainlyLocal(url: string): boolean {
  try {
    const endpoint = mysqlEndpoint(url);
    return 'socket' in endpoint || isPlainlyLocalHost(endpoint.host);
  } catch {
    return false;
  }
}

/** Extra mysql2 options for a user's target: none when local databases are allowed, else a socket pinned to the checked address. */
export async function guardedMysqlOptions(url: string, allowLocal: boolean): Promise<{ stream?: () => net.Socket }> {
  if (allowLocal) return {};
  const endpoint = mysqlEndpoint(url);
  if ('socket' in endpoint) throw new Error(`${LOCAL_DATABASE_MESSAGE}: a Unix socket is a database on this host; ${ALLOW_HINT}`);
  const address = await checkedAddress(endpoint.host);
  return {
    // mysql2 uses a stream it is given as it is, so it is opened here; TLS still checks the certificate against the URL's host.
    stream: () => net.connect(endpoint.port, address).setNoDelay(true),
  };
}
