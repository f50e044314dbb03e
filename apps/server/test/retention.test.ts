import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionScheduler, runRetention } from '../src/modules/events/retention';
import { startTestServer, type TestServer } from './harness';

describe('retention cleanup', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function seed(): Promise<string> {
    const pool = server.pool;
    await pool.query(`insert into job_history (name, status, created_at) select 'retention-test', 'SUCCESS', now() - interval '40 days' from generate_series(1, 5)`);
    await pool.query(`insert into job_history (name, status, created_at) values ('retention-test', 'SUCCESS', now() - interval '1 day')`);
    await pool.query(`insert into event_queue (name, error, attempts, created_at) select 'retention.test', 'boom', 5, now() - interval '10 days' from generate_series(1, 3)`);
    await pool.query(`insert into event_queue (name, created_at) values ('retention.test', now() - interval '1 hour')`);
    const check = await pool.query<{ id: string }>(
      `with canary as (insert into canaries (name) values ('retention-canary') returning id)
       insert into checks (canary_id, name, type) select id, 'retention-check', 'http' from canary returning id`,
    );
    const id = check.rows[0]?.id ?? '';
    await pool.query(`insert into check_statuses (check_id, time, status) select $1, now() - make_interval(days => 100 + g), true from generate_series(1, 4) g`, [id]);
    await pool.query(`insert into check_statuses (check_id, time, status) values ($1, now() - interval '2 days', true)`, [id]);
    return id;
  }

  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await server.pool.query<{ n: string }>(sql, params)).rows[0]?.n ?? -1);

  it('deletes rows older than the configured ages in small batches, keeps recent ones and records its run', async () => {
    const startedAt = new Date().toISOString();
    const checkId = await seed();
    const outcome = await runRetention(server.pool, new Date(), 2);
    expect(outcome.ages).toEqual({ jobHistoryDays: 30, eventQueueDays: 7, checkStatusesDays: 90 });
    expect(outcome.deleted.job_history).toBeGreaterThanOrEqual(5);
    expect(outcome.deleted).toMatchObject({ event_queue: 3, check_statuses: 4 });
    expect(await count(`select count(*) as n from job_history where name = 'retention-test'`)).toBe(1);
    expect(await count(`select count(*) as n from event_queue where name = 'retention.test'`)).toBe(1);
    expect(await count(`select count(*) as n from check_statuses where check_id = $1`, [checkId])).toBe(1);
    const job = await server.pool.query(`select status, resource_type, success_count from job_history where name = 'RetentionCleanup' and created_at >= $1`, [startedAt]);
    expect(job.rows).toEqual([{ status: 'SUCCESS', resource_type: 'retention', success_count: outcome.deleted.job_history + 7 }]);
  });

  it('reads the ages from properties', async () => {
    await server.pool.query(`insert into properties (name, value) values ('retention.job_history.days', '0.5') on conflict (name) do update set value = excluded.value`);
    await server.pool.query(`insert into job_history (name, status, created_at) values ('retention-props', 'SUCCESS', now() - interval '1 day')`);
    const outcome = await runRetention(server.pool);
    expect(outcome.ages.jobHistoryDays).toBe(0.5);
    expect(await count(`select count(*) as n from job_history where name = 'retention-props'`)).toBe(0);
    await server.pool.query(`delete from properties where name = 'retention.job_history.days'`);
  });

  it('runs in only one of two schedulers when both are due at once, and not again until the next hour', async () => {
    await server.pool.query(`update maintenance_jobs set next_runtime = now() - interval '1 minute', lease_owner = null, lease_expires_at = null`);
    const first = new RetentionScheduler({ pool: server.pool });
    const second = new RetentionScheduler({ pool: server.pool });
    const outcomes = await Promise.all([first.pass(), second.pass()]);
    expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
    expect(await first.pass()).toBeNull();
    expect(await count(`select count(*) as n from maintenance_jobs where next_runtime > now() + interval '50 minutes'`)).toBe(1);
  });
});
