import type pg from 'pg';
import { decryptSecret } from '../../platform/secrets';

export interface ResolvedConnection {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  insecureTls: boolean;
  properties: Record<string, string>;
}

interface ConnectionRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password_encrypted: Buffer | null;
  insecure_tls: boolean;
  properties: Record<string, unknown> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A responder names its connection by id, by name (namespace 'default'), as 'namespace/name', or as
 * 'connection://namespace/name'. Deleted connections are not found.
 */
export function parseConnectionRef(ref: string): { id: string } | { namespace: string; name: string } {
  const trimmed = ref.trim().replace(/^connection:\/\//, '');
  if (UUID.test(trimmed)) return { id: trimmed };
  const slash = trimmed.indexOf('/');
  if (slash < 0) return { namespace: 'default', name: trimmed };
  return { namespace: trimmed.slice(0, slash), name: trimmed.slice(slash + 1) };
}

export async function findConnection(pool: pg.Pool, secretKey: Buffer, ref: string): Promise<ResolvedConnection | null> {
  const parsed = parseConnectionRef(ref);
  const columns = 'id, name, namespace, type, url, username, password_encrypted, insecure_tls, properties';
  const result =
    'id' in parsed
      ? await pool.query<ConnectionRow>(`select ${columns} from connections where id = $1 and deleted_at is null`, [parsed.id])
      : await pool.query<ConnectionRow>(`select ${columns} from connections where namespace = $1 and name = $2 and deleted_at is null`, [
          parsed.namespace,
          parsed.name,
        ]);
  const row = result.rows[0];
  if (row === undefined) return null;
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.properties ?? {})) {
    if (value !== null && value !== undefined) properties[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    url: row.url,
    username: row.username,
    password: row.password_encrypted === null ? null : decryptSecret(secretKey, row.password_encrypted),
    insecureTls: row.insecure_tls,
    properties,
  };
}
