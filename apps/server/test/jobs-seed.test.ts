import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_JOBS } from '../src/seed/jobs';
import { startTestServer, type TestServer } from './harness';

interface JobRow {
  name: string;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  status: string;
  duration_millis: number | null;
  error_count: number;
  details: { errors?: string[]; scrape_summary?: unknown; summary?: unknown };
  agent: { id: string; name: string } | null;
  created_at: string;
}

describe('job history demo data', () => {
  let server: TestServer;
  let rows: JobRow[];

  beforeAll(async () => {
    server = await startTestServer();
    const admin = await server.cookieFor('admin');
    const reply = await server.call('GET', '/api/db/job_histories?select=*&duration_millis=gte.15000&order=created_at.desc', admin);
    expect(reply.status).toBe(200);
    rows = reply.json as unknown as JobRow[];
  });
  afterAll(async () => {
    await server.close();
  });

  it('holds every demo run longer than 15 seconds, each tied to a named resource except the retention cleanup', () => {
    const long = DEMO_JOBS.filter((job) => job.durationMillis >= 15_000);
    expect(rows.length).toBeGreaterThanOrEqual(long.length);
    for (const job of long) {
      const match = rows.find((row) => row.name === job.name && row.duration_millis === job.durationMillis);
      expect(match, `${job.name} ${job.durationMillis}`).toBeDefined();
      expect(match?.resource_type).toBe(job.resourceType);
      expect(match?.resource_name).toBe(job.resource?.name);
    }
  });

  it('gives failed runs repeated errors, so the most common one can be shown', () => {
    const scrape = rows.find((row) => row.name === 'Scraper' && row.status === 'FAILED');
    expect(scrape?.details.errors).toHaveLength(3);
    expect(scrape?.details.scrape_summary).toBeDefined();
    expect(scrape?.error_count).toBe(3);
  });

  it('attributes the agent push run to its agent and keeps the five-day-old run outside the default two days', () => {
    expect(rows.find((row) => row.name === 'AgentPushIngestion')?.agent?.name).toBe('edge-eu-west');
    const old = rows.find((row) => row.duration_millis === 31_000);
    expect(Date.now() - Date.parse(old?.created_at ?? '')).toBeGreaterThan(4 * 24 * 3_600_000);
  });

  it('lists the seeded job names through job_history_names in name order', async () => {
    const reply = await server.call('GET', '/api/db/job_history_names?order=name', await server.cookieFor('responder'));
    expect(reply.status).toBe(200);
    const names = (reply.json as unknown as { name: string }[]).map((row) => row.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['AgentPushIngestion', 'Canary', 'PlaybookRun', 'RetentionCleanup', 'Scraper', 'Topology']));
  });
});
