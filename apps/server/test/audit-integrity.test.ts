import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRetentionScheduler } from '../src/modules/audit/audit-retention';
import { AUDIT_RETENTION_PROPERTY, purgeAuditLog } from '../src/modules/audit';
import { startTestServer, type TestServer } from './harness';
import { auditRows } from './audit-support';

/** Rows put straight into the table (an INSERT is the one change SQL may make), `days` old. */
async function insertRow(server: TestServer, days: number, route: string): Promise<string> {
  const result = await server.pool.query<{ id: string }>(
    `insert into audit_log (at, via, method, route, action, status) values (now() - make_interval(days => $1), 'system', 'POST', $2, 'create', 201) returning id`,
    [days, route],
  );
  return result.rows[0]?.id ?? '';
}

async function setRetention(server: TestServer, days: string | null): Promise<void> {
  if (days === null) await server.pool.query('delete from properties where name = $1', [AUDIT_RETENTION_PROPERTY]);
  else {
    await server.pool.query('insert into properties (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value', [
      AUDIT_RETENTION_PROPERTY,
      days,
    ]);
  }
}

describe('the audit log table', () => {
  let server: TestServer;
  let admin: string;
  let rowId: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    rowId = await insertRow(server, 1, '/integrity/fixture');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('reading', () => {
    it('is listed, filtered and counted for admins through the data API', async () => {
      expect((await server.call('POST', '/api/db/teams', admin, { name: 'Read me back' })).status).toBe(201);
      await auditRows(server, `resource = 'teams'`);
      const reply = await server.call(
        'GET',
        '/api/db/audit_log?select=id,actor_name,resource,action,changed_fields&resource=eq.teams&action=eq.create&order=at.desc&limit=5',
        admin,
        undefined,
        { prefer: 'count=exact' },
      );
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual([expect.objectContaining({ actor_name: 'Ada Admin', resource: 'teams', action: 'create', changed_fields: ['name'] })]);
    });

    it.each(['editor', 'commander', 'responder', 'viewer'] as const)('is refused to a %s', async (role) => {
      const reply = await server.call('GET', '/api/db/audit_log?select=id', await server.cookieFor(role));
      expect(reply.status).toBe(403);
    });
  });

  describe('append-only', () => {
    it.each([
      ['POST', '/api/db/audit_log', { via: 'system', method: 'POST', route: '/forged', action: 'create', status: 201 }],
      ['PATCH', '/api/db/audit_log?id=eq.ROW', { action: 'forged' }],
      ['DELETE', '/api/db/audit_log?id=eq.ROW', undefined],
    ] as const)('refuses %s through the data API, to admins too', async (method, url, body) => {
      const reply = await server.call(method, url.replace('ROW', rowId), admin, body);
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe('OD_AUDIT_APPEND_ONLY');
      const editor = await server.call(method, url.replace('ROW', rowId), await server.cookieFor('editor'), body);
      expect(editor.status).toBe(403);
      const row = await server.pool.query('select action from audit_log where id = $1', [rowId]);
      expect(row.rows).toEqual([{ action: 'create' }]);
    });

    it.each([
      ['UPDATE', `update audit_log set action = 'forged' where id = $1`, true],
      ['DELETE', 'delete from audit_log where id = $1', true],
      ['TRUNCATE', 'truncate audit_log', false],
    ] as const)('refuses %s in SQL with SQLSTATE ODAU1', async (_verb, sql, bound) => {
      await expect(server.pool.query(sql, bound ? [rowId] : [])).rejects.toMatchObject({ code: 'ODAU1' });
      expect((await server.pool.query('select 1 from audit_log where id = $1', [rowId])).rowCount).toBe(1);
    });
  });

  describe('retention', () => {
    it('purges rows older than audit.retention.days, keeps the rest and records the purge as the system', async () => {
      const old = await insertRow(server, 40, '/integrity/old');
      const recent = await insertRow(server, 20, '/integrity/recent');
      await setRetention(server, '30');
      const outcome = await purgeAuditLog(server.pool);
      expect(outcome).toMatchObject({ days: 30, deleted: 1 });
      const left = await server.pool.query<{ id: string }>('select id from audit_log where id = any($1::uuid[])', [[old, recent]]);
      expect(left.rows.map((row) => row.id)).toEqual([recent]);
      const [purge] = await auditRows(server, `action = 'purge'`);
      expect(purge).toMatchObject({ via: 'system', resource: 'audit_log', changes: { days: 30, deleted: 1 } });
    });

    it('keeps a year by default and ignores a value that is not a positive number', async () => {
      const year = await insertRow(server, 300, '/integrity/year');
      const older = await insertRow(server, 400, '/integrity/older');
      await setRetention(server, 'forever');
      expect(await purgeAuditLog(server.pool)).toMatchObject({ days: 365, deleted: 1 });
      await setRetention(server, null);
      const left = await server.pool.query<{ id: string }>('select id from audit_log where id = any($1::uuid[])', [[year, older]]);
      expect(left.rows.map((row) => row.id)).toEqual([year]);
    });

    it('runs in one worker when due, under the maintenance lease', async () => {
      const old = await insertRow(server, 500, '/integrity/scheduled');
      const first = new AuditRetentionScheduler({ pool: server.pool });
      const second = new AuditRetentionScheduler({ pool: server.pool });
      expect(await first.pass()).toBeNull();
      await server.pool.query(`update maintenance_jobs set next_runtime = now() - interval '1 second' where name = 'audit_retention'`);
      const outcomes = await Promise.all([first.pass(), second.pass()]);
      expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
      expect((await server.pool.query('select 1 from audit_log where id = $1', [old])).rowCount).toBe(0);
      const next = await server.pool.query<{ due: boolean }>(`select next_runtime > now() + interval '50 minutes' as due from maintenance_jobs where name = 'audit_retention'`);
      expect(next.rows[0]?.due).toBe(true);
    });
  });
});
