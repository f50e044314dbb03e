import type pg from 'pg';
import { errors } from '../../platform/errors';
import { leavesConnectionOrigin, TARGET_FIELDS, connectionUrlOf, namesOwnDatabase } from '../connections';
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

/**
 * Walks any spec (a canary spec, a resource wrapping one, or one check's entry) rather than each check type's
 * schema, so a check type added later, or a check row written through the data API, is covered the same way.
 */
function collect(value: unknown, path: string, overrides: Override[], postgresUrls: Array<{ path: string; url: string }>): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collect(item, join(path, index), overrides, postgresUrls));
    return;
  }
  if (!isRecord(value)) return;
  const connection = value.connection;
  for (const field of TARGET_FIELDS) {
    const target = value[field];
    if (typeof target !== 'string' || target.trim() === '') continue;
    if (typeof connection === 'string' && connection.trim() !== '' && !isInlineUrl(connection)) overrides.push({ path: join(path, field), connection, target });
    if (POSTGRES_URL.test(target.trim())) postgresUrls.push({ path: join(path, field), url: target.trim() });
  }
  if (typeof connection === 'string' && POSTGRES_URL.test(connection.trim())) postgresUrls.push({ path: join(path, 'connection'), url: connection.trim() });
  for (const [name, child] of Object.entries(value)) {
    if (name !== 'labels') collect(child, join(path, name), overrides, postgresUrls);
  }
}

/**
 * The save-time rules on where a spec's checks point: a check that names a stored connection keeps its url,
 * endpoint or addr on that connection's origin (its credentials go nowhere else), and no postgres URL names this
 * server's own database. Throws the coded 400; the checkers enforce both again when they run.
 */
export async function checkSpecTargets(pool: pg.Pool, spec: unknown): Promise<void> {
  const overrides: Override[] = [];
  const postgresUrls: Array<{ path: string; url: string }> = [];
  collect(spec, '', overrides, postgresUrls);
  for (const { path, url } of postgresUrls) {
    if (namesOwnDatabase(pool, url)) throw errors.ownDatabase(path);
  }
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
