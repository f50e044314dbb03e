import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

interface Point {
  time: string;
  passed: number;
  failed: number;
  duration_avg: number | null;
  duration_max: number | null;
}

interface Detail {
  check: { id: string; name: string; status: string | null; health: string; uptime: { passed: number; failed: number } };
  uptime: { passed: number; failed: number; percentage: number | null };
  latency: { p95: number | null; p97: number | null; p99: number | null };
  series: { bucket: string; points: Point[] };
  timeRange: { key: string; since: string; source: string };
}

const sum = (points: readonly Point[], key: 'passed' | 'failed'): number => points.reduce((total, point) => total + point[key], 0);

describe('check detail: the Uptime tile and the Health Overview chart count the same runs', () => {
  let server: TestServer;
  let viewer: string;
  let checkId: string;

  async function detail(id: string, start: string): Promise<Detail> {
    const reply = await server.call('GET', `/api/canary/api/details?check=${id}&start=${start}`, viewer);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    return reply.json as unknown as Detail;
  }

  /** Passed and failed runs in [since, now] straight from the raw rows. */
  async function rawTruth(id: string, since: string): Promise<{ passed: number; failed: number }> {
    const result = await server.pool.query<{ passed: number; failed: number }>(
      `select (count(*) filter (where status))::integer as passed, (count(*) filter (where not status))::integer as failed
         from check_statuses where check_id = $1 and time >= $2`,
      [id, since],
    );
    return result.rows[0] ?? { passed: 0, failed: 0 };
  }

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    // A check of its own, never scheduled, so no run lands between a request and the count it is compared with.
    const created = await server.pool.query<{ id: string }>(
      `with canary as (insert into canaries (name, namespace, labels, schedule, spec, source) values ('range', 'default', '{}', '@hourly', '{}', 'test') returning id)
       insert into checks (canary_id, type, name, namespace, labels, spec, status)
       select id, 'http', 'range/odd-steps', 'default', '{}', '{}', 'healthy' from canary returning id`,
    );
    checkId = created.rows[0]?.id ?? '';
    // 62 days of runs 7 minutes and 13 seconds apart, every ninth failing: no bucket edge lines up with the runs, so a
    // range that reached back to the start of its first hour or day would count runs from before it.
    await server.pool.query(
      `insert into check_statuses (check_id, time, status, duration)
       select $1, now() - make_interval(secs => g * 433), g % 9 <> 0, 10 + (g * 37) % 400 from generate_series(1, 62 * 86400 / 433) g`,
      [checkId],
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['15m', '1h', '6h', '1d', '1w', '2mo'])('for %s the tile equals the sum of the chart buckets and the raw runs of exactly that range', async (start) => {
    const body = await detail(checkId, start);
    expect(body.series.points.length).toBeGreaterThan(0);
    const chart = { passed: sum(body.series.points, 'passed'), failed: sum(body.series.points, 'failed') };
    expect({ passed: body.uptime.passed, failed: body.uptime.failed }).toEqual(chart);
    expect(body.check.uptime).toEqual(chart);
    expect(chart).toEqual(await rawTruth(checkId, body.timeRange.since));
    expect(body.uptime.percentage).toBeCloseTo((chart.passed / (chart.passed + chart.failed)) * 100, 6);
    expect(body.latency.p95).not.toBeNull();
    expect(body.check.health).toBe(chart.failed > 0 ? 'warning' : 'healthy');
  });

  it('draws long ranges in daily buckets whose first holds only the runs since the start of the range', async () => {
    expect((await detail(checkId, '1w')).series.bucket).toBe('1h');
    const months = await detail(checkId, '2mo');
    expect(months.series.bucket).toBe('1d');
    const firstDay = await server.pool.query<{ ms: number; passed: number; failed: number }>(
      `select (extract(epoch from date_trunc('day', $2::timestamptz, 'UTC')) * 1000)::float8 as ms, (count(*) filter (where status))::integer as passed,
              (count(*) filter (where not status))::integer as failed
         from check_statuses where check_id = $1 and time >= $2 and time < date_trunc('day', $2::timestamptz, 'UTC') + interval '24 hours'`,
      [checkId, months.timeRange.since],
    );
    const expected = firstDay.rows[0];
    if (expected === undefined) throw new Error('the first day of the range has no row');
    // Runs are 433 s apart, so a range starting in the last minutes of a UTC day may hold none of that day's: then
    // that day has no point, or an empty one, and none comes before it; at any other time it holds some.
    const first = months.series.points[0];
    expect(new Date(first?.time ?? 0).getTime()).toBeGreaterThanOrEqual(expected.ms);
    const day = months.series.points.find((point) => new Date(point.time).getTime() === expected.ms);
    expect({ passed: day?.passed ?? 0, failed: day?.failed ?? 0 }).toEqual({ passed: expected.passed, failed: expected.failed });
  });

  it('agrees on every demo check for 1h, 24h and 7d', async () => {
    // Checks that never ran are left out: the local demo agent's have no result until npm run demo:agent runs them.
    const checks = await server.pool.query<{ id: string; name: string }>(
      `select id, name from checks k where deleted_at is null and canary_id <> (select canary_id from checks where id = $1)
          and exists (select 1 from check_statuses s where s.check_id = k.id)`,
      [checkId],
    );
    expect(checks.rows.length).toBeGreaterThan(5);
    for (const check of checks.rows) {
      for (const start of ['1h', '1d', '1w']) {
        const body = await detail(check.id, start);
        const chart = { passed: sum(body.series.points, 'passed'), failed: sum(body.series.points, 'failed') };
        expect({ passed: body.uptime.passed, failed: body.uptime.failed }, `${check.name} ${start}`).toEqual(chart);
        if (start !== '1h') expect(chart.passed + chart.failed, `${check.name} ${start}`).toBeGreaterThan(0);
      }
    }
  });
});
