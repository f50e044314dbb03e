import { auditWriterOf, type AuditRecordInput } from '../src/modules/audit';
import type { JsonReply, TestServer } from './harness';

/** A row of audit_log as the tests read it: what the hook writes, with the id the database gave it. */
export interface AuditRow extends Omit<AuditRecordInput, 'via'> {
  id: string;
  via: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The audit rows matching `where` once at least `expected` are there (or after 5 s): the hook records a request after
 * its response has gone, so a test waits for the row rather than assuming it is written already.
 */
export async function auditRows(server: TestServer, where: string, values: unknown[] = [], expected = 1): Promise<AuditRow[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    await auditWriterOf(server.running.app)?.flush();
    const result = await server.pool.query<AuditRow>(`select * from audit_log where ${where} order by at, id`, values);
    if (result.rows.length >= expected || Date.now() > deadline) return result.rows;
    await sleep(20);
  }
}

/** The whole table as text, every column of every row, to search for values that must never be in it. */
export async function auditTableText(server: TestServer): Promise<string> {
  await auditWriterOf(server.running.app)?.flush();
  const result = await server.pool.query<{ text: string | null }>(`select string_agg(a::text, E'\\n') as text from audit_log a`);
  return result.rows[0]?.text ?? '';
}

/** A personal API token of the holder of `cookie`, created through the route. */
export async function createApiToken(server: TestServer, cookie: string, role: string, name = `token ${role}`, expiresInDays = 30): Promise<JsonReply & { token: string; id: string }> {
  const reply = await server.call('POST', '/api/auth/api-tokens', cookie, { name, role, expiresInDays });
  return { ...reply, token: String(reply.json.token ?? ''), id: String(reply.json.id ?? '') };
}

/** One JSON call with `Authorization: Bearer <token>` and no cookie. */
export function callWithToken(server: TestServer, token: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  return server.call(method, url, '', body, { authorization: `Bearer ${token}`, ...headers });
}
