import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusWriter, type StatusWrite } from '../src/modules/health/status-writer';
import { startTestServer, type TestServer } from './harness';

/** The check scheduler's status writes (#33): the runs that finish together share one statement. */
describe('status writer', () => {
  let server: TestServer;
  let canaryId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('sw-canary', '{}') returning id`);
    canaryId = canary.rows[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  async function leasedChecks(owner: string, names: readonly string[], status: string): Promise<string[]> {
    const rows = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, status, lease_owner, lease_until)
       select $1, 'http', n, $3, $4, now() + interval '1 minute' from unnest($2::text[]) n returning id`,
      [canaryId, names, status, owner],
    );
    return rows.rows.map((row) => row.id);
  }

  function run(checkId: string, pass: boolean, message: string, startedAt = new Date()): StatusWrite {
    return { checkId, startedAt, nextRuntime: new Date(startedAt.getTime() + 60_000), pass, durationMs: 12, message, error: pass ? null : message, details: { code: 200 } };
  }

  /** The pool with its statements counted. */
  function counting(pool: pg.Pool): { pool: pg.Pool; statements: () => number } {
    let statements = 0;
    const counted = new Proxy(pool, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<pg.Pool['query']>) => {
          statements += 1;
          return (target.query as (...a: Parameters<pg.Pool['query']>) => unknown)(...args);
        };
      },
    });
    return { pool: counted, statements: () => statements };
  }

  it('writes the runs that finish while a write is under way in one statement, with their events and the leases released', async () => {
    const owner = 'sw-owner-batch';
    const ids = await leasedChecks(owner, ['sw-a', 'sw-b', 'sw-c', 'sw-d'], 'healthy');
    const { pool, statements } = counting(server.pool);
    const writer = new StatusWriter(pool, owner);
    const written = await Promise.all(ids.map((id, i) => writer.write(run(id, i !== 2, `run ${i}`))));

    expect(written).toEqual([{ previous: 'healthy' }, { previous: 'healthy' }, { previous: 'healthy' }, { previous: 'healthy' }]);
    // The first run is written at once; the three that finished meanwhile go together.
    expect(statements()).toBe(2);
    const checks = await server.pool.query<{ name: string; status: string; lease_owner: string | null }>(
      'select name, status, lease_owner from checks where id = any($1::uuid[]) order by name',
      [ids],
    );
    expect(checks.rows).toEqual([
      { name: 'sw-a', status: 'healthy', lease_owner: null },
      { name: 'sw-b', status: 'healthy', lease_owner: null },
      { name: 'sw-c', status: 'unhealthy', lease_owner: null },
      { name: 'sw-d', status: 'healthy', lease_owner: null },
    ]);
    const statuses = await server.pool.query<{ n: number }>('select count(*)::int as n from check_statuses where check_id = any($1::uuid[])', [ids]);
    expect(statuses.rows[0]?.n).toBe(4);
    const events = await server.pool.query<{ name: string; previous: string }>(
      `select name, properties->>'previous_status' as previous from event_queue where properties->>'check_id' = any($1::text[])`,
      [ids],
    );
    expect(events.rows).toEqual([{ name: 'check.failed', previous: 'healthy' }]);
  });

  it('keeps every other run of a batch the database refuses, and writes nothing for a check whose lease another worker holds', async () => {
    const owner = 'sw-owner-refused';
    const [first = '', good = '', bad = '', taken = ''] = await leasedChecks(owner, ['sw-e', 'sw-f', 'sw-g', 'sw-h'], 'unhealthy');
    await server.pool.query(`update checks set lease_owner = 'another-worker' where id = $1`, [taken]);
    const writer = new StatusWriter(server.pool, owner);
    const outcomes = await Promise.allSettled([
      writer.write(run(first, true, 'first')),
      writer.write(run(good, true, 'fine')),
      // PostgreSQL's text holds no NUL character: this row makes the batch's statement fail.
      writer.write(run(bad, true, 'broken \u0000 message')),
      writer.write(run(taken, true, 'late')),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: { previous: 'unhealthy' } });
    expect(outcomes[3]).toEqual({ status: 'fulfilled', value: null });
    const stored = await server.pool.query<{ name: string; n: number }>(
      `select k.name, count(s.check_id)::int as n from checks k left join check_statuses s on s.check_id = k.id
        where k.id = any($1::uuid[]) group by k.name order by k.name`,
      [[first, good, bad, taken]],
    );
    expect(stored.rows).toEqual([
      { name: 'sw-e', n: 1 },
      { name: 'sw-f', n: 1 },
      { name: 'sw-g', n: 0 },
      { name: 'sw-h', n: 0 },
    ]);
  });
});
