import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_CONNECTION, DEMO_WEBHOOK_CONNECTION } from '../src/seed/notifications';
import { startTestServer, type TestServer } from './harness';

interface SummaryRow {
  name: string;
  events: string[];
  pending: number;
  failed: number;
  sent: number;
  most_common_error: string | null;
  team_id: string | null;
  custom_services: Array<{ connection: string }> | null;
}

describe('notification demo data', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists failing checks to a team by email and config changes to the demo webhook, with their counts', async () => {
    const reply = await server.call('GET', '/api/db/notifications_summary?select=*&order=name', admin);
    expect(reply.status).toBe(200);
    const rows = reply.json as unknown as SummaryRow[];
    expect(rows.find((row) => row.name === 'Failing checks')).toMatchObject({
      events: ['check.failed', 'check.passed'],
      team_id: expect.any(String),
      sent: 2,
      failed: 1,
      pending: 1,
    });
    const configs = rows.find((row) => row.name === 'Config changes');
    expect(configs).toMatchObject({ sent: 2, failed: 1, pending: 1, most_common_error: expect.stringMatching(/^Seeded demo failure: /) });
    expect(configs?.custom_services?.[0]?.connection).toBe(`connection://default/${DEMO_WEBHOOK_CONNECTION}`);
  });

  it('holds send history in every status, with errors on the failures and reasons on the skips', async () => {
    const rows = await server.pool.query<{ status: string; error: string | null; reason: string | null }>('select status, error, reason from notification_send_history');
    expect(new Set(rows.rows.map((row) => row.status))).toEqual(new Set(['pending', 'sent', 'failed', 'skipped']));
    // A failure the demo writes on purpose says so, so a fresh install does not read as a broken one.
    for (const row of rows.rows.filter((r) => r.status === 'failed')) expect(row.error).toMatch(/^Seeded demo failure: /);
    for (const row of rows.rows.filter((r) => r.status === 'skipped')) expect(row.reason).toMatch(/^Flapping/);
  });

  it('points its demo connections at the demo inbox, marked so the inbox keeps them pointed at itself', async () => {
    const rows = await server.pool.query<{ name: string; url: string; source: string }>('select name, url, source from connections where name = any ($1) order by name', [
      [DEMO_EMAIL_CONNECTION, DEMO_WEBHOOK_CONNECTION],
    ]);
    expect(rows.rows).toEqual([
      { name: DEMO_EMAIL_CONNECTION, url: '127.0.0.1:25', source: 'demo-inbox' },
      // The suites seed their template as a server at http://127.0.0.1:9 would.
      { name: DEMO_WEBHOOK_CONNECTION, url: 'http://127.0.0.1:9/api/demo-inbox/hooks/opsdeck', source: 'demo-inbox' },
    ]);
  });
});
