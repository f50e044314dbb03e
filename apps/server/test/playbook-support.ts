import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from './harness';

/** Saves a playbook through the data API under a fresh name starting with `prefix`; answers its id. */
export async function savePlaybook(server: TestServer, cookie: string, spec: Record<string, unknown>, prefix: string): Promise<string> {
  const reply = await server.call('POST', '/api/db/playbooks', cookie, { name: `${prefix}-${randomBytes(4).toString('hex')}`, spec }, { prefer: 'return=representation' });
  expect(reply.status, reply.text).toBe(201);
  const rows = reply.json as unknown as Array<{ id: string }>;
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no playbook id');
  return id;
}

/** A run's status as stored, or 'missing'. */
export async function runStatus(server: TestServer, runId: string): Promise<string> {
  const row = await server.pool.query<{ status: string }>('select status from playbook_runs where id = $1', [runId]);
  return row.rows[0]?.status ?? 'missing';
}
