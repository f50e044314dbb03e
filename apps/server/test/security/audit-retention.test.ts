import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_RETENTION_PROPERTY, purgeAuditLog } from '../../src/modules/audit';
import { AuditRetentionScheduler } from '../../src/modules/audit/audit-retention';
import { startTestServer, type TestServer } from '../harness';

/**
 * Hole 2 of issue #31: an editor set audit.retention.days to 0.00001, moved the purge job's next run into the past,
 * and within 60 s the purge had deleted every audit row, the record of the attack included. Retention is now an
 * admin's setting in whole days (at least one), the purge's schedule is an admin's too, and a purge never deletes
 * the last day of rows nor the records of purges, which it writes after deleting.
 */

const UPSERT = { prefer: 'resolution=merge-duplicates,return=representation' };

/** A row put straight into the table (INSERT is the one change SQL may make), `hours` old. */
async function insertRow(server: TestServer, hours: number, route: string, action = 'create'): Promise<string> {
  const result = await server.pool.query<{ id: string }>(
    `insert into audit_log (at, via, method, route, resource, action, status)
     values (now() - make_interval(hours => $1), 'system', 'DELETE', $2, 'audit_log', $3, 200) returning id`,
    [hours, route, action],
  );
  return result.rows[0]?.id ?? '';
}

async function countRows(server: TestServer): Promise<number> {
  const result = await server.pool.query<{ n: number }>('select count(*)::int as n from audit_log');
  return result.rows[0]?.n ?? 0;
}

async function storedRetention(server: TestServer): Promise<string | null> {
  const result = await server.pool.query<{ value: string }>('select value from properties where name = $1', [AUDIT_RETENTION_PROPERTY]);
  return result.rows[0]?.value ?? null;
}

/** When the purge runs next, in epoch milliseconds (PGlite and pg hand timestamps back in different types). */
async function nextPurge(server: TestServer): Promise<number> {
  const result = await server.pool.query<{ ms: number }>(
    `select (extract(epoch from next_runtime) * 1000)::float8 as ms from maintenance_jobs where name = 'audit_retention'`,
  );
  const next = result.rows[0]?.ms;
  if (next === undefined) throw new Error('no audit_retention job');
  return next;
}

describe('the audit log cannot be wiped by changing its retention', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    for (const [hours, route] of [[2, '/attack/recent'], [30, '/attack/yesterday'], [24 * 40, '/attack/old']] as const) await insertRow(server, hours, route);
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses an editor who sets audit.retention.days to 0.00001 and moves the purge into the past, and the purge then deletes nothing', async () => {
    const before = await countRows(server);
    const scheduled = await nextPurge(server);

    const created = await server.call('POST', '/api/db/properties', editor, { name: AUDIT_RETENTION_PROPERTY, value: '0.00001' });
    expect(created.status).toBe(403);
    expect(created.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY', details: AUDIT_RETENTION_PROPERTY });
    const upserted = await server.call('POST', '/api/db/properties', editor, { name: AUDIT_RETENTION_PROPERTY, value: '0.00001' }, UPSERT);
    expect(upserted.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY' });
    expect(await storedRetention(server)).toBeNull();

    const moved = await server.call('PATCH', '/api/db/maintenance_jobs?name=eq.audit_retention', editor, { next_runtime: '2000-01-01T00:00:00Z' });
    expect(moved.status).toBe(403);
    expect(moved.json).toMatchObject({ code: 'OD_MAINTENANCE_JOB_ADMIN_ONLY', details: 'audit_retention' });
    expect(await nextPurge(server)).toEqual(scheduled);

    // What a worker does every minute: the job is not due, and a purge run by hand keeps the year by default.
    expect(await new AuditRetentionScheduler({ pool: server.pool }).pass()).toBeNull();
    expect(await purgeAuditLog(server.pool)).toMatchObject({ days: 365 });
    expect(await countRows(server)).toBeGreaterThanOrEqual(before);
    const attackRows = await server.pool.query(`select 1 from audit_log where route like '/attack/%'`);
    expect(attackRows.rowCount).toBe(3);
  });

  it('refuses an editor every other way to reach the schedule: creating, deleting or upserting a job', async () => {
    const posted = await server.call('POST', '/api/db/maintenance_jobs', editor, { name: 'audit_retention', next_runtime: '2000-01-01T00:00:00Z' }, UPSERT);
    expect(posted).toMatchObject({ status: 403, json: expect.objectContaining({ code: 'OD_MAINTENANCE_JOB_ADMIN_ONLY' }) });
    const deleted = await server.call('DELETE', '/api/db/maintenance_jobs?name=eq.audit_retention', editor);
    expect(deleted).toMatchObject({ status: 403, json: expect.objectContaining({ code: 'OD_MAINTENANCE_JOB_ADMIN_ONLY' }) });
    const retention = await server.call('PATCH', '/api/db/maintenance_jobs?name=eq.retention', editor, { next_runtime: '2000-01-01T00:00:00Z' });
    expect(retention.json).toMatchObject({ code: 'OD_MAINTENANCE_JOB_ADMIN_ONLY' });
    const jobs = await server.pool.query<{ name: string }>('select name from maintenance_jobs order by name');
    expect(jobs.rows.map((row) => row.name)).toEqual(['audit_retention', 'gitops', 'retention']);
  });

  it.each(['0.00001', '0.5', '1.5', '0', '-1', '1e-5', '36501', 'forever', ''])(
    'refuses an admin who sets audit.retention.days to %j with a coded 400',
    async (value) => {
      const reply = await server.call('POST', '/api/db/properties', admin, { name: AUDIT_RETENTION_PROPERTY, value }, UPSERT);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 'OD_RETENTION_DAYS', details: AUDIT_RETENTION_PROPERTY });
      expect(await storedRetention(server)).toBeNull();
    },
  );

  it('refuses a fractional retention of the other retention jobs too, to an admin', async () => {
    const reply = await server.call('POST', '/api/db/properties', admin, { name: 'retention.check_statuses.days', value: '0.001' });
    expect(reply.json).toMatchObject({ code: 'OD_RETENTION_DAYS', details: 'retention.check_statuses.days' });
  });

  it('lets an admin set a whole number of days and move the schedule', async () => {
    const set = await server.call('POST', '/api/db/properties', admin, { name: AUDIT_RETENTION_PROPERTY, value: '1' }, UPSERT);
    expect(set.status).toBe(201);
    const moved = await server.call('PATCH', '/api/db/maintenance_jobs?name=eq.audit_retention', admin, { next_runtime: '2000-01-01T00:00:00Z' });
    expect(moved.status).toBe(204);
    expect(await nextPurge(server)).toBe(Date.parse('2000-01-01T00:00:00Z'));
  });

  it('purges only rows older than the retention, leaves the last day, records itself and never deletes a purge record', async () => {
    const earlierPurge = await insertRow(server, 24 * 50, 'retention', 'purge');
    expect(await storedRetention(server)).toBe('1');

    // Due since the admin moved it: the scheduler runs it now.
    const outcome = await new AuditRetentionScheduler({ pool: server.pool }).pass();
    expect(outcome).toMatchObject({ days: 1 });
    expect(outcome?.deleted).toBeGreaterThanOrEqual(2);

    const left = await server.pool.query<{ route: string }>(`select route from audit_log where route like '/attack/%' order by route`);
    expect(left.rows.map((row) => row.route)).toEqual(['/attack/recent']);
    const purges = await server.pool.query<{ id: string; changes: { days: number; deleted: number } }>(
      `select id, changes from audit_log where via = 'system' and action = 'purge' order by at`,
    );
    expect(purges.rows.map((row) => row.id)).toContain(earlierPurge);
    const own = purges.rows.at(-1);
    expect(own?.changes).toMatchObject({ days: 1, deleted: outcome?.deleted });

    // Even a purge handed a cutoff in the future keeps the last day and every purge record.
    const future = new Date(Date.now() + 400 * 86_400_000);
    await purgeAuditLog(server.pool, future);
    const after = await server.pool.query<{ id: string }>(`select id from audit_log where via = 'system' and action = 'purge'`);
    expect(after.rows.map((row) => row.id)).toEqual(expect.arrayContaining(purges.rows.map((row) => row.id)));
    expect((await server.pool.query(`select 1 from audit_log where route = '/attack/recent'`)).rowCount).toBe(1);
  });

  it('refuses, in SQL, a purge transaction that deletes a purge record or a row younger than a day', async () => {
    const young = await insertRow(server, 1, '/attack/sql-young');
    const purge = await insertRow(server, 24 * 60, 'retention', 'purge');
    for (const id of [young, purge]) {
      const client = await server.pool.connect();
      try {
        await client.query('begin');
        await client.query(`select set_config('opsdeck.audit_purge', 'on', true)`);
        await expect(client.query('delete from audit_log where id = $1', [id])).rejects.toMatchObject({ code: 'ODAU1' });
      } finally {
        await client.query('rollback');
        client.release();
      }
      expect((await server.pool.query('select 1 from audit_log where id = $1', [id])).rowCount).toBe(1);
    }
  });
});
