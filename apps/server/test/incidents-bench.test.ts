import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchIncidentList } from '../src/bench/incidents';
import { startTestServer, type TestServer } from './harness';

describe('incident list benchmark', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('seeds up to the target once and reports latency percentiles of the filtered, paged list', async () => {
    const cookie = await server.cookieFor('viewer');
    const first = await benchIncidentList({ pool: server.pool, url: server.url, cookie, incidents: 300, samples: 20 });
    expect(first.seededNow).toBe(300);
    expect(first.incidents).toBeGreaterThanOrEqual(300);
    expect(first.p95Ms).toBeGreaterThan(0);
    expect(first.p95Ms).toBeGreaterThanOrEqual(first.p50Ms);
    const hypotheses = await server.pool.query<{ n: number }>(`select count(*)::int as n from hypotheses h join incidents i on i.id = h.incident_id where i.title like 'Bench incident%'`);
    expect(hypotheses.rows[0]?.n).toBe(300);
    const second = await benchIncidentList({ pool: server.pool, url: server.url, cookie, incidents: 300, samples: 5 });
    expect(second.seededNow).toBe(0);
  });
});
