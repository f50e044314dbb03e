import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScaleHealth } from '../src/seed/scale-health';
import { UptimeWindows, WINDOW_MAX_AGE_MS } from '../src/modules/health/uptime-windows';
import { startTestServer, type TestServer } from './harness';

interface Check {
  id: string;
  name: string;
  status: 'healthy' | 'unhealthy' | null;
  health: 'healthy' | 'unhealthy' | 'warning' | 'unknown';
  labels: Record<string, string>;
  uptime: { passed: number; failed: number };
  latency: { p95: number | null; p97: number | null; p99: number | null };
}

interface Summary {
  checks_summary: Check[];
  totalEntries: number;
  counts: { total: number; healthy: number; unhealthy: number; warning: number; unknown: number };
  tabs: { key: string; count: number }[];
  groups: { key: string; count: number; healthy: number; unhealthy: number; warning: number; unknown: number; health: string }[];
  labels: Record<string, string[]>;
  timeRange: { key: string; since: string; source: string; asOf: string };
}

interface Expected {
  passed: number;
  failed: number;
  p95: number | null;
  p97: number | null;
  p99: number | null;
}

describe('health summary at scale: paging, filters and the uptime windows', () => {
  let server: TestServer;
  let viewer: string;
  let canaryId: string;
  let checkCount: number;

  async function summary(search: string, canary = canaryId): Promise<Summary> {
    const response = await fetch(`${server.url}/api/canary/api/summary?canary_id=${canary}&${search}`, { headers: { cookie: viewer } });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    return JSON.parse(text) as Summary;
  }

  /** Uptime and latency straight from the hourly rollups, with migration 0005's percentile function. */
  async function fromRollups(ids: string[]): Promise<Map<string, Expected>> {
    const result = await server.pool.query<Expected & { check_id: string }>(
      `select r.check_id, sum(r.passed)::integer as passed, sum(r.failed)::integer as failed,
              check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.95, max(r.duration_max)) as p95,
              check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.97, max(r.duration_max)) as p97,
              check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.99, max(r.duration_max)) as p99
         from check_statuses_1h r
        where r.check_id = any($1) and r.bucket >= date_trunc('hour', now() - interval '1 day', 'UTC')
        group by r.check_id`,
      [ids],
    );
    return new Map(result.rows.map(({ check_id: id, ...rest }) => [id, rest]));
  }

  function statsOf(check: Check): Expected {
    return { ...check.uptime, ...check.latency };
  }

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    // 100 checks of one canary with 30 runs each, half an hour apart: all inside the last day, in hourly buckets.
    await seedScaleHealth(server.pool, { checks: 100, statuses: 3000, stepMinutes: 30, rowsPerBatch: 1000 });
    const canary = await server.pool.query<{ id: string; checks: number }>(
      `select c.id, count(k.id)::integer as checks from canaries c join checks k on k.canary_id = c.id
        where c.source = 'seed:scale' group by c.id order by c.created_at desc limit 1`,
    );
    canaryId = canary.rows[0]?.id ?? '';
    checkCount = canary.rows[0]?.checks ?? 0;
    expect(checkCount).toBe(100);
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds the rollups of the bulk load as the trigger would', async () => {
    const rows = await server.pool.query<{ raw: number; hourly: number; daily: number; hist: number }>(
      `select (select count(*) from check_statuses s join checks k on k.id = s.check_id where k.canary_id = $1)::integer as raw,
              (select sum(r.total) from check_statuses_1h r join checks k on k.id = r.check_id where k.canary_id = $1)::integer as hourly,
              (select sum(r.total) from check_statuses_1d r join checks k on k.id = r.check_id where k.canary_id = $1)::integer as daily,
              (select sum(x) from check_statuses_1h r join checks k on k.id = r.check_id, unnest(r.duration_histogram) x where k.canary_id = $1)::integer as hist`,
      [canaryId],
    );
    expect(rows.rows[0]).toEqual({ raw: 3000, hourly: 3000, daily: 3000, hist: 3000 });
  });

  it('returns only the page’s checks, with their uptime and latency equal to the rollups, and counts over every check', async () => {
    const all = await summary('timeRange=1d&tabBy=namespace&groupBy=type');
    expect(all.checks_summary).toHaveLength(checkCount);
    const page = await summary('timeRange=1d&tabBy=namespace&groupBy=type&pageIndex=1&pageSize=30');
    expect(page.checks_summary.map((check) => check.id)).toEqual(all.checks_summary.slice(30, 60).map((check) => check.id));
    expect(page.totalEntries).toBe(checkCount);
    expect(page.counts).toEqual(all.counts);
    expect(page.counts.total).toBe(checkCount);
    expect(page.tabs).toEqual(all.tabs);
    expect(page.tabs[0]).toEqual({ key: 'All', count: checkCount });
    expect(page.groups).toEqual([
      { key: 'tcp', count: checkCount, healthy: all.counts.healthy, unhealthy: all.counts.unhealthy, warning: all.counts.warning, unknown: 0, health: 'mixed' },
    ]);
    expect(page.labels).toEqual(all.labels);
    expect(page.labels.env).toEqual(['dev', 'prod', 'staging']);

    const expected = await fromRollups(page.checks_summary.map((check) => check.id));
    for (const check of page.checks_summary) expect(statsOf(check), check.name).toEqual(expected.get(check.id));
    expect(page.checks_summary.every((check) => check.uptime.passed + check.uptime.failed === 30)).toBe(true);
  });

  it('returns the checks of the open groups alone with groups=, still counting and grouping every check', async () => {
    const all = await summary('timeRange=1d&groupBy=env');
    expect(all.groups.map((group) => group.key)).toEqual(['dev', 'prod', 'staging']);
    const prod = all.checks_summary.filter((check) => check.labels.env === 'prod');
    expect(prod.length).toBeGreaterThan(0);

    const open = await summary(`timeRange=1d&groupBy=env&groups=${encodeURIComponent(JSON.stringify(['prod']))}`);
    expect(open.checks_summary).toEqual(prod);
    expect(open.groups).toEqual(all.groups);
    expect(open.counts).toEqual(all.counts);
    expect(open.totalEntries).toBe(checkCount);

    const closed = await summary(`timeRange=1d&groupBy=env&groups=${encodeURIComponent('[]')}`);
    expect(closed.checks_summary).toEqual([]);
    expect(closed.groups).toEqual(all.groups);

    const byUptime = await summary(`timeRange=1d&groupBy=env&sortBy=uptime&groups=${encodeURIComponent(JSON.stringify(['dev', 'staging']))}`);
    const everyByUptime = await summary('timeRange=1d&groupBy=env&sortBy=uptime');
    expect(byUptime.checks_summary.map((check) => check.id)).toEqual(
      everyByUptime.checks_summary.filter((check) => check.labels.env !== 'prod').map((check) => check.id),
    );
  });

  it('refuses groups= that is not a JSON array of group keys, or comes without groupBy, with a coded 400', async () => {
    for (const search of ['timeRange=1d&groupBy=env&groups=prod', `timeRange=1d&groupBy=env&groups=${encodeURIComponent('[1]')}`, `timeRange=1d&groups=${encodeURIComponent('["prod"]')}`]) {
      const response = await fetch(`${server.url}/api/canary/api/summary?canary_id=${canaryId}&${search}`, { headers: { cookie: viewer } });
      const body = (await response.json()) as { code: string; message: string; details?: unknown };
      expect(response.status, search).toBe(400);
      expect(body.code, search).toBe('OD_VALIDATION');
      // The field is named in the message or in the details that list each bad field.
      expect(`${body.message} ${JSON.stringify(body.details ?? null)}`, search).toMatch(/groups/);
    }
  });

  it('computes uptime and latency for the page alone when the range has no totals table (raw rows, odd ranges)', async () => {
    const paged = await summary('timeRange=5h&pageIndex=0&pageSize=10');
    expect(paged.timeRange).toMatchObject({ key: '5h', source: '1h' });
    expect(paged.checks_summary).toHaveLength(10);
    const ids = paged.checks_summary.map((check) => check.id);
    const rollup = await server.pool.query<{ check_id: string; passed: number; failed: number }>(
      `select check_id, sum(passed)::integer as passed, sum(failed)::integer as failed from check_statuses_1h
        where check_id = any($1) and bucket >= date_trunc('hour', now() - interval '5 hours', 'UTC') group by check_id`,
      [ids],
    );
    const byId = new Map(rollup.rows.map((row) => [row.check_id, { passed: row.passed, failed: row.failed }]));
    for (const check of paged.checks_summary) expect(check.uptime).toEqual(byId.get(check.id));

    const raw = await summary('timeRange=15m&pageIndex=0&pageSize=5');
    expect(raw.timeRange.source).toBe('raw');
    const counts = await server.pool.query<{ check_id: string; passed: number; failed: number }>(
      `select check_id, (count(*) filter (where status))::integer as passed, (count(*) filter (where not status))::integer as failed
         from check_statuses where check_id = any($1) and time >= now() - interval '15 minutes' group by check_id`,
      [raw.checks_summary.map((check) => check.id)],
    );
    const rawById = new Map(counts.rows.map((row) => [row.check_id, { passed: row.passed, failed: row.failed }]));
    for (const check of raw.checks_summary) expect(check.uptime).toEqual(rawById.get(check.id) ?? { passed: 0, failed: 0 });
  });

  it('sorts every check by uptime and latency before paging', async () => {
    const all = await summary('timeRange=1d&sortBy=uptime&sortDesc=false');
    const ratio = (check: Check): number => check.uptime.passed / (check.uptime.passed + check.uptime.failed);
    const ratios = all.checks_summary.map(ratio);
    expect(ratios).toEqual([...ratios].sort((a, b) => a - b));
    const first = await summary('timeRange=1d&sortBy=uptime&sortDesc=false&pageIndex=0&pageSize=10');
    expect(first.checks_summary.map((check) => check.id)).toEqual(all.checks_summary.slice(0, 10).map((check) => check.id));
    const slowest = await summary('timeRange=1d&sortBy=latency&sortDesc=true&pageIndex=0&pageSize=5');
    const latencies = all.checks_summary.map((check) => check.latency.p95 ?? -1).sort((a, b) => b - a);
    expect(slowest.checks_summary.map((check) => check.latency.p95)).toEqual(latencies.slice(0, 5));
  });

  it('applies hidePassing, label include and exclude, query and status filters on the server', async () => {
    const truth = await server.pool.query<{ unhealthy: number; warning: number; prod: number; not_team1: number; named: number; prod_unhealthy: number }>(
      `select (count(*) filter (where status = 'unhealthy'))::integer as unhealthy,
              (count(*) filter (where status = 'healthy' and exists (
                 select 1 from check_statuses_1h r
                  where r.check_id = checks.id and r.failed > 0 and r.bucket >= date_trunc('hour', now() - interval '1 day', 'UTC'))))::integer as warning,
              (count(*) filter (where labels ->> 'env' = 'prod'))::integer as prod,
              (count(*) filter (where labels ->> 'team' is distinct from 'team-1'))::integer as not_team1,
              (count(*) filter (where name ilike '%svc-1%'))::integer as named,
              (count(*) filter (where labels ->> 'env' = 'prod' and status = 'unhealthy'))::integer as prod_unhealthy
         from checks where canary_id = $1 and deleted_at is null`,
      [canaryId],
    );
    const expected = truth.rows[0];
    if (expected === undefined) throw new Error('no counts');

    expect(expected.warning).toBeGreaterThan(0);
    const failing = await summary('timeRange=1d&hidePassing=true&pageIndex=0&pageSize=200');
    expect(failing.totalEntries).toBe(expected.unhealthy + expected.warning);
    expect(failing.counts).toMatchObject({ total: checkCount, unhealthy: expected.unhealthy, warning: expected.warning });
    expect(failing.checks_summary.every((check) => check.health === 'unhealthy' || check.health === 'warning')).toBe(true);
    const warnings = await summary('timeRange=1d&status=warning&pageIndex=0&pageSize=200');
    expect(warnings.totalEntries).toBe(expected.warning);
    expect(warnings.checks_summary.every((check) => check.status === 'healthy' && check.health === 'warning' && check.uptime.failed > 0)).toBe(true);

    const prod = await summary(`timeRange=1d&labels=${encodeURIComponent('env=prod')}&pageIndex=0&pageSize=200`);
    expect(prod.totalEntries).toBe(expected.prod);
    expect(prod.checks_summary.every((check) => check.labels.env === 'prod')).toBe(true);
    const notTeam1 = await summary(`timeRange=1d&labels=${encodeURIComponent('!team=team-1')}&pageIndex=0&pageSize=10`);
    expect(notTeam1.totalEntries).toBe(expected.not_team1);
    expect(notTeam1.checks_summary.some((check) => check.labels.team === 'team-1')).toBe(false);
    const both = await summary(`timeRange=1d&labels=${encodeURIComponent('env=prod')}&status=unhealthy`);
    expect(both.totalEntries).toBe(expected.prod_unhealthy);

    const named = await summary('timeRange=1d&query=svc-1&pageIndex=0&pageSize=3');
    expect(named.totalEntries).toBe(expected.named);
    expect(named.checks_summary.every((check) => check.name.includes('svc-1'))).toBe(true);
  });

  it('offers the label values of every check in scope, whatever the search and the label filters narrow the list to', async () => {
    const all = await summary('timeRange=1d&pageIndex=0&pageSize=1');
    expect(all.labels.env).toEqual(['dev', 'prod', 'staging']);
    const nothing = await summary('timeRange=1d&query=no-such-check&pageIndex=0&pageSize=1');
    expect(nothing.totalEntries).toBe(0);
    expect(nothing.labels).toEqual(all.labels);
    const prod = await summary(`timeRange=1d&labels=${encodeURIComponent('env=prod')}&pageIndex=0&pageSize=1`);
    expect(prod.totalEntries).toBeLessThan(checkCount);
    expect(prod.labels).toEqual(all.labels);
  });

  it('refreshes the totals of a range within the staleness bound after new statuses arrive', async () => {
    const before = await summary('timeRange=1d&pageIndex=0&pageSize=1');
    const check = before.checks_summary[0];
    if (check === undefined) throw new Error('no check');
    expect(Date.now() - Date.parse(before.timeRange.asOf)).toBeLessThanOrEqual(WINDOW_MAX_AGE_MS);
    await server.pool.query(`insert into check_statuses (check_id, time, status, duration) values ($1, now(), false, 70000), ($1, now() - interval '1 second', false, 65000)`, [
      check.id,
    ]);
    // As if the bound had passed since the totals were computed: the next read must not serve them.
    await server.pool.query(`update check_uptime_window_state set refreshed_at = now() - make_interval(secs => $1::double precision / 1000 + 1) where window_key = '1d'`, [
      WINDOW_MAX_AGE_MS,
    ]);
    const after = await summary('timeRange=1d&pageIndex=0&pageSize=1');
    expect(after.checks_summary[0]?.uptime).toEqual({ passed: check.uptime.passed, failed: check.uptime.failed + 2 });
    expect(statsOf(after.checks_summary[0] as Check)).toEqual((await fromRollups([check.id])).get(check.id));
    expect(after.checks_summary[0]?.latency.p99).toBeGreaterThan(60000);
    expect(Date.parse(after.timeRange.asOf)).toBeGreaterThan(Date.parse(before.timeRange.asOf));

    // The worker's pass recomputes a window that is being read once it is past the refresh age.
    await server.pool.query(`insert into check_statuses (check_id, time, status, duration) values ($1, now() - interval '2 seconds', true, 15)`, [check.id]);
    await server.pool.query(`update check_uptime_window_state set refreshed_at = now() - interval '31 seconds', requested_at = now() where window_key = '1d'`);
    const windows = new UptimeWindows(server.pool, (error) => {
      throw error;
    });
    expect(await windows.refreshRead()).toEqual(['1d']);
    const stored = await server.pool.query<{ passed: number; failed: number }>(
      `select passed, failed from check_uptime_windows where window_key = '1d' and check_id = $1`,
      [check.id],
    );
    expect(stored.rows[0]).toEqual({ passed: check.uptime.passed + 1, failed: check.uptime.failed + 2 });
  });

  it('recomputes a window in slices of checks to the same totals as in one pass', async () => {
    const totals = async (): Promise<unknown[]> =>
      (await server.pool.query(`select check_id, passed, failed, p95, p97, p99 from check_uptime_windows where window_key = '1w' order by check_id`)).rows;
    const fail = (error: unknown): never => {
      throw error;
    };
    await new UptimeWindows(server.pool, fail, 1_000_000).refresh('1w', false);
    const whole = await totals();
    expect(whole.length).toBeGreaterThan(20);
    await server.pool.query(`update check_uptime_windows set passed = 0, failed = 0 where window_key = '1w'`);
    // A check without runs in the range has no totals: a stale row of it must go.
    const idle = await server.pool.query<{ id: string }>(
      `with canary as (insert into canaries (name, namespace, labels, schedule, spec, source) values ('idle', 'default', '{}', '@hourly', '{}', 'test') returning id)
       insert into checks (canary_id, type, name, namespace, labels, spec) select id, 'http', 'idle', 'default', '{}', '{}' from canary returning id`,
    );
    await server.pool.query(`insert into check_uptime_windows (window_key, check_id, passed, failed) values ('1w', $1, 1, 1)`, [idle.rows[0]?.id]);
    await new UptimeWindows(server.pool, fail, 7).refresh('1w', false);
    expect(await totals()).toEqual(whole);
  });

  describe('the warning health: passing now, failed within the time range', () => {
    let flapCanaryId: string;

    /** Runs of one check, each `[minutes ago, passed]`, written through the rollup trigger. */
    async function runs(checkId: string, history: [number, boolean][]): Promise<void> {
      for (const [minutes, passed] of history) {
        await server.pool.query(
          `insert into check_statuses (check_id, time, status, duration) values ($1, now() - make_interval(mins => $2), $3, 25)`,
          [checkId, minutes, passed],
        );
      }
    }

    async function healthByName(search: string): Promise<Record<string, string>> {
      const body = await summary(search, flapCanaryId);
      return Object.fromEntries(body.checks_summary.map((check) => [check.name, check.health]));
    }

    beforeAll(async () => {
      const canary = await server.pool.query<{ id: string }>(
        `insert into canaries (name, namespace, labels, schedule, spec, source) values ('flap', 'default', '{}', '@every 5m', '{}', 'test') returning id`,
      );
      flapCanaryId = canary.rows[0]?.id ?? '';
      const checks = await server.pool.query<{ id: string; name: string }>(
        `insert into checks (canary_id, type, name, namespace, labels, spec, status)
         values ($1, 'http', 'steady', 'default', '{}', '{}', 'healthy'), ($1, 'http', 'recovered', 'default', '{}', '{}', 'healthy'),
                ($1, 'http', 'old-blip', 'default', '{}', '{}', 'healthy'), ($1, 'http', 'down', 'default', '{}', '{}', 'unhealthy'),
                ($1, 'http', 'never', 'default', '{}', '{}', null)
         returning id, name`,
        [flapCanaryId],
      );
      const id = (name: string): string => checks.rows.find((row) => row.name === name)?.id ?? '';
      const hourly: [number, boolean][] = [60, 120, 240, 480, 960].map((minutes) => [minutes, true]);
      await runs(id('steady'), [[5, true], ...hourly]);
      await runs(id('recovered'), [[5, true], [20, false], ...hourly]);
      await runs(id('old-blip'), [[5, true], [3 * 1440, false], ...hourly]);
      await runs(id('down'), [[5, false], [60, false], [120, true]]);
      // Totals computed by earlier tests would hide these runs until the staleness bound passed.
      await server.pool.query(`update check_uptime_window_state set refreshed_at = now() - interval '1 hour'`);
    });

    it('marks a passing check that failed inside the range as a warning and one whose failure is older as healthy', async () => {
      const expected = { steady: 'healthy', recovered: 'warning', 'old-blip': 'healthy', down: 'unhealthy', never: 'unknown' };
      expect(await healthByName('timeRange=1d')).toEqual(expected);
      const body = await summary('timeRange=1d', flapCanaryId);
      const recovered = body.checks_summary.find((check) => check.name === 'recovered');
      expect(recovered).toMatchObject({ status: 'healthy', health: 'warning', uptime: { passed: 6, failed: 1 } });
      // Over a week the old failure is inside the range.
      expect(await healthByName('timeRange=1w')).toEqual({ ...expected, 'old-blip': 'warning' });
    });

    it('derives the same health on ranges without a totals table, from raw rows and from the rollups', async () => {
      expect(await healthByName('timeRange=15m')).toMatchObject({ recovered: 'healthy', 'old-blip': 'healthy', down: 'unhealthy', never: 'unknown' });
      expect(await healthByName('timeRange=30m')).toMatchObject({ recovered: 'warning', 'old-blip': 'healthy' });
      expect(await healthByName('timeRange=5h')).toMatchObject({ recovered: 'warning', 'old-blip': 'healthy', steady: 'healthy' });
      expect(await healthByName('timeRange=4d')).toMatchObject({ recovered: 'warning', 'old-blip': 'warning', steady: 'healthy' });
    });

    it('filters on status=warning on the server and counts warnings apart from healthy checks', async () => {
      const warnings = await summary('timeRange=1d&status=warning', flapCanaryId);
      expect(warnings.checks_summary.map((check) => check.name)).toEqual(['recovered']);
      expect(warnings.totalEntries).toBe(1);
      expect(warnings.counts).toEqual({ total: 5, healthy: 2, unhealthy: 1, warning: 1, unknown: 1 });
      const either = await summary('timeRange=1d&status=warning,unhealthy', flapCanaryId);
      expect(either.checks_summary.map((check) => check.name).sort()).toEqual(['down', 'recovered']);
      const grouped = await summary('timeRange=1d&groupBy=type', flapCanaryId);
      expect(grouped.groups).toEqual([{ key: 'http', count: 5, healthy: 2, unhealthy: 1, warning: 1, unknown: 1, health: 'mixed' }]);
    });

    it('keeps warnings in view when passing checks are hidden', async () => {
      const shown = await summary('timeRange=1d&hidePassing=true', flapCanaryId);
      expect(shown.checks_summary.map((check) => check.name).sort()).toEqual(['down', 'never', 'recovered']);
    });

    it('counts each tab with every filter of the page, the status ones included, and keeps a tab that nothing matches', async () => {
      const failing = await summary('timeRange=1d&tabBy=namespace&hidePassing=true', flapCanaryId);
      expect(failing.totalEntries).toBe(3);
      expect(failing.tabs).toEqual([
        { key: 'All', count: 3 },
        { key: 'default', count: 3 },
      ]);
      const warnings = await summary('timeRange=1d&tabBy=namespace&status=warning', flapCanaryId);
      expect(warnings.tabs).toEqual([
        { key: 'All', count: 1 },
        { key: 'default', count: 1 },
      ]);
      const none = await summary('timeRange=1d&tabBy=namespace&status=warning&query=down', flapCanaryId);
      expect(none.tabs).toEqual([
        { key: 'All', count: 0 },
        { key: 'default', count: 0 },
      ]);
      // The health counts are per status: the status filters leave them alone, the search does not.
      expect(none.counts).toEqual({ total: 1, healthy: 0, unhealthy: 1, warning: 0, unknown: 0 });
    });

    it('a group of warnings alone is mixed, not unhealthy', async () => {
      const grouped = await summary('timeRange=1d&status=warning&groupBy=type', flapCanaryId);
      expect(grouped.groups).toEqual([{ key: 'http', count: 1, healthy: 0, unhealthy: 0, warning: 1, unknown: 0, health: 'mixed' }]);
    });

    it('sorts by status worst first: unhealthy, warning, healthy, then checks that never ran', async () => {
      const ascending = await summary('timeRange=1d&sortBy=status&sortDesc=false', flapCanaryId);
      expect(ascending.checks_summary.map((check) => check.name)).toEqual(['down', 'recovered', 'old-blip', 'steady', 'never']);
      const descending = await summary('timeRange=1d&sortBy=status&sortDesc=true', flapCanaryId);
      expect(descending.checks_summary.map((check) => check.name)).toEqual(['never', 'steady', 'old-blip', 'recovered', 'down']);
    });
  });

  describe('counts kept between requests', () => {
    let keptCanaryId: string;
    let ids: Record<string, string>;
    const version = async (): Promise<string> =>
      (await server.pool.query<{ v: string }>(`select last_value::text || ':' || is_called::text as v from health_summary_version`)).rows[0]?.v ?? '';

    beforeAll(async () => {
      const canary = await server.pool.query<{ id: string }>(
        `insert into canaries (name, namespace, labels, schedule, spec, source) values ('kept', 'team-a', '{}', '@every 5m', '{}', 'test') returning id`,
      );
      keptCanaryId = canary.rows[0]?.id ?? '';
      const checks = await server.pool.query<{ id: string; name: string }>(
        `insert into checks (canary_id, type, name, namespace, labels, spec, status)
         values ($1, 'http', 'one', 'team-a', '{"tier":"web"}', '{}', 'healthy'), ($1, 'http', 'two', 'team-a', '{"tier":"web"}', '{}', 'healthy')
         returning id, name`,
        [keptCanaryId],
      );
      ids = Object.fromEntries(checks.rows.map((row) => [row.name, row.id]));
    });

    it('serves counts that follow a change of health, labels, a rename and a new check at once, while a run that changes nothing keeps the version', async () => {
      const first = await summary('timeRange=1d&tabBy=namespace&groupBy=canary_name&pageSize=1', keptCanaryId);
      expect(first.counts).toMatchObject({ total: 2, healthy: 2, unhealthy: 0 });
      expect(first.checks_summary).toHaveLength(1);

      const before = await version();
      await server.pool.query(`update checks set last_runtime = now(), next_runtime = now() + interval '5 minutes' where canary_id = $1`, [keptCanaryId]);
      expect(await version()).toBe(before);

      await server.pool.query(`update checks set status = 'unhealthy', last_transition_time = now() where id = $1`, [ids.one]);
      expect(await version()).not.toBe(before);
      const failing = await summary('timeRange=1d&tabBy=namespace&groupBy=canary_name&pageSize=1', keptCanaryId);
      expect(failing.counts).toMatchObject({ total: 2, healthy: 1, unhealthy: 1 });
      expect(failing.groups).toEqual([{ key: 'kept', count: 2, healthy: 1, unhealthy: 1, warning: 0, unknown: 0, health: 'mixed' }]);

      expect((await summary('timeRange=1d', keptCanaryId)).labels).toEqual({ tier: ['web'] });
      await server.pool.query(`update checks set labels = '{"tier":"db"}' where id = $1`, [ids.two]);
      expect((await summary('timeRange=1d', keptCanaryId)).labels).toEqual({ tier: ['db', 'web'] });

      expect((await summary('timeRange=1d&groupBy=canary_name', keptCanaryId)).groups.map((group) => group.key)).toEqual(['kept']);
      await server.pool.query(`update canaries set name = 'kept-renamed' where id = $1`, [keptCanaryId]);
      const renamed = await summary('timeRange=1d&groupBy=canary_name', keptCanaryId);
      expect(renamed.groups.map((group) => group.key)).toEqual(['kept-renamed']);

      await server.pool.query(`insert into checks (canary_id, type, name, namespace, labels, spec, status) values ($1, 'http', 'three', 'team-b', '{}', '{}', null)`, [
        keptCanaryId,
      ]);
      const added = await summary('timeRange=1d&tabBy=namespace', keptCanaryId);
      expect(added.totalEntries).toBe(3);
      expect(added.tabs).toEqual([
        { key: 'All', count: 3 },
        { key: 'team-a', count: 2 },
        { key: 'team-b', count: 1 },
      ]);
    });

    it("moves the version when a check's failures in a window appear or clear, and not when only its totals grow", async () => {
      await summary('timeRange=1d', keptCanaryId);
      const row = await server.pool.query<{ window_key: string }>(`select window_key from check_uptime_windows where check_id = $1`, [ids.two]);
      const windowKey = row.rows[0]?.window_key ?? '1d';
      await server.pool.query(
        `insert into check_uptime_windows (window_key, check_id, passed, failed) values ($1, $2, 5, 0)
         on conflict (window_key, check_id) do update set passed = 5, failed = 0`,
        [windowKey, ids.two],
      );
      const before = await version();
      await server.pool.query(`update check_uptime_windows set passed = passed + 10 where window_key = $1 and check_id = $2`, [windowKey, ids.two]);
      expect(await version()).toBe(before);
      await server.pool.query(`update check_uptime_windows set failed = 1 where window_key = $1 and check_id = $2`, [windowKey, ids.two]);
      expect(await version()).not.toBe(before);
    });
  });
});
