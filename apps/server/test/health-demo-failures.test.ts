import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from './harness';

/**
 * The demo's checks that say they fail on purpose (#34 item 2) must fail when they really run: one that passed would
 * send a "passed" notification over its seeded failing history and contradict its own description.
 */
describe('the demo checks that fail on purpose', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['backup/archive-folder', 'network/legacy-service'])('%s fails when it runs', async (name) => {
    const check = await server.pool.query<{ id: string; description: string }>(`select id, description from checks where name = $1 and deleted_at is null`, [name]);
    const id = check.rows[0]?.id ?? '';
    expect(check.rows[0]?.description).toMatch(/^Fails on purpose in the demo/);
    const started = new Date();
    await server.pool.query('update checks set next_runtime = now() where id = $1', [id]);
    const result = await waitFor(
      `a run of ${name}`,
      async () => {
        const rows = await server.pool.query<{ status: boolean; error: string | null; message: string | null }>(
          'select status, error, message from check_statuses where check_id = $1 and created_at >= $2 order by time desc limit 1',
          [id, started],
        );
        return rows.rows[0] ?? null;
      },
      30_000,
    );
    expect(result.status, JSON.stringify(result)).toBe(false);
  });
});
