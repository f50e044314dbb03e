import type pg from 'pg';
import { errors } from '../../platform/errors';
import {
  connectionUrlOf,
  databaseErrors,
  leavesConnectionOrigin,
  localDatabasesAllowed,
  mysqlUrlIsPlainlyLocal,
  namesOwnDatabase,
  postgresUrlIsPlainlyLocal,
  TARGET_FIELDS,
} from '../connections';
import { isInlineUrl } from './checkers/checker';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

interface Override {
  path: string;
  connection: string;
  target: string;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const MYSQL_URL = /^(mysql|mariadb):\/\//i;

interface DatabaseUrl {
  path: string;
  url: string;
  driver: 'postgres' | 'mysql';
}

function databaseUrl(path: string, raw: string): DatabaseUrl | null {
  const url = raw.trim();
  if (POSTGRES_URL.test(url)) return { path, url, driver: 'postgres' };
  if (MYSQL_URL.test(url)) return { path, url, driver: 'mysql' };
  return null;
}

/**
 * Walks any spec (a canary spec, a resource wrapping one, or one check's entry) rather than each check type's
 * schema, so a check type added later, or a check row written through the data API, is covered the same way.
 */
function collect(value: unknown, path: string, overrides: Override[], databaseUrls: DatabaseUrl[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collect(item, join(path, index), overrides, databaseUrls));
    return;
  }
  if (!isRecord(value)) return;
  const connection = value.connection;
  const found: Array<DatabaseUrl | null> = [];
  for (const field of TARGET_FIELDS) {
    const target = value[field];
    if (typeof target !== 'string' || target.trim() === '') continue;
    if (typeof connection === 'string' && connection.trim() !== '' && !isInlineUrl(connection)) overrides.push({ path: join(path, field), connection, target });
    found.push(databaseUrl(join(path, field), target));
  }
  if (typeof connection === 'string') found.push(databaseUrl(join(path, 'connection'), connection));
  databaseUrls.push(...found.filter((entry): entry is DatabaseUrl => entry !== null));
  for (const [name, child] of Object.entries(value)) {
    if (name !== 'labels') collect(child, join(path, name), overrides, databaseUrls);
  }
}

function isPlainlyLocal(target: DatabaseUrl): boolean {
  return target.driver === 'postgres' ? postgresUrlIsPlainlyLocal(target.url) : mysqlUrlIsPlainlyLocal(target.url);
}

/**
 * The save-time rules on where a spec's checks point: a check that names a stored connection keeps its url,
 * endpoint or addr on that connection's origin (its credentials go nowhere else), no postgres URL names this
 * server's own database, and no postgres or mysql URL plainly names a database on this host (a Unix socket,
 * localhost, a loopback or own address) unless an admin allowed local databases. Throws the coded 400; the checkers
 * enforce all of them again when they run, where names are resolved too.
 */
export async function checkSpecTargets(pool: pg.Pool, spec: unknown): Promise<void> {
  const overrides: Override[] = [];
  const databaseUrls: DatabaseUrl[] = [];
  collect(spec, '', overrides, databaseUrls);
  for (const { path, url, driver } of databaseUrls) {
    if (driver === 'postgres' && namesOwnDatabase(pool, url)) throw errors.ownDatabase(path);
  }
  const local = databaseUrls.find(isPlainlyLocal);
  if (local !== undefined && !(await localDatabasesAllowed(pool))) throw databaseErrors.localDatabase(local.path);
  for (const { path, connection, target } of overrides) {
    let url: string | null | undefined;
    try {
      url = await connectionUrlOf(pool, connection);
    } catch {
      // An ambiguous reference fails when the check runs, which also refuses a foreign target then.
      continue;
    }
    // A connection created later is checked when the check runs.
    if (url === undefined) continue;
    if (leavesConnectionOrigin(url, target)) throw errors.connectionOrigin(path);
  }
}
