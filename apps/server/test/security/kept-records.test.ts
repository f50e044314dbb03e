import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';

/**
 * Job history is the record of what the server's jobs did, and the event queue holds what is still to be delivered.
 * Both fell to the `database` resource, which editors may write: an editor could delete the runs that showed their
 * change breaking a scraper, forge runs under the server's job names, or delete a queued event before its
 * notification went out. Migration 0116 leaves these writes to administrators and to the server itself.
 */
describe('job history and queued events are kept from editors', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;

  async function jobRun(name: string): Promise<string> {
    const result = await server.pool.query<{ id: string }>(
      `insert into job_history (name, status, success_count, error_count, time_start, time_end)
       values ($1, 'FAILED', 0, 1, now() - interval '1 minute', now()) returning id`,
      [name],
    );
    return result.rows[0]?.id ?? '';
  }

  async function queuedEvent(): Promise<string> {
    const result = await server.pool.query<{ id: string }>(`insert into event_queue (name, properties) values ('kept.test', '{}') returning id`);
    return result.rows[0]?.id ?? '';
  }

  async function exists(table: 'job_history' | 'event_queue', id: string): Promise<boolean> {
    return ((await server.pool.query(`select 1 from ${table} where id = $1`, [id])).rowCount ?? 0) === 1;
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses an editor who deletes, rewrites or forges job history, and keeps the rows', async () => {
    const run = await jobRun('ConfigScraper:kept-records');

    const deleted = await server.call('DELETE', `/api/db/job_history?id=eq.${run}`, editor);
    expect(deleted).toMatchObject({ status: 403, json: expect.objectContaining({ code: 'OD_RECORD_ADMIN_ONLY', details: 'job_history' }) });
    const wiped = await server.call('DELETE', `/api/db/job_history?status=eq.FAILED`, editor);
    expect(wiped.json).toMatchObject({ code: 'OD_RECORD_ADMIN_ONLY' });
    const rewritten = await server.call('PATCH', `/api/db/job_history?id=eq.${run}`, editor, { status: 'SUCCESS', error_count: 0 });
    expect(rewritten.json).toMatchObject({ code: 'OD_RECORD_ADMIN_ONLY' });
    const forged = await server.call('POST', '/api/db/job_history', editor, { name: 'ConfigScraper:kept-records', status: 'SUCCESS' });
    expect(forged).toMatchObject({ status: 403, json: expect.objectContaining({ code: 'OD_RECORD_ADMIN_ONLY' }) });

    const stored = await server.pool.query<{ status: string }>('select status from job_history where id = $1', [run]);
    expect(stored.rows[0]?.status).toBe('FAILED');
    const names = await server.pool.query(`select 1 from job_history where name = 'ConfigScraper:kept-records'`);
    expect(names.rowCount).toBe(1);
  });

  it('refuses an editor who deletes or injects queued events, and keeps the queue as it was', async () => {
    const event = await queuedEvent();
    const deleted = await server.call('DELETE', `/api/db/event_queue?id=eq.${event}`, editor);
    expect(deleted).toMatchObject({ status: 403, json: expect.objectContaining({ code: 'OD_RECORD_ADMIN_ONLY', details: 'event_queue' }) });
    const injected = await server.call('POST', '/api/db/event_queue', editor, { name: 'check.failed', properties: { id: event } });
    expect(injected.json).toMatchObject({ code: 'OD_RECORD_ADMIN_ONLY' });
    expect(await exists('event_queue', event)).toBe(true);
    const forgedEvents = await server.pool.query(`select 1 from event_queue where properties ->> 'id' = $1`, [event]);
    expect(forgedEvents.rowCount).toBe(0);
  });

  it('still lets an administrator clear a job run and a queued event', async () => {
    const run = await jobRun('ConfigScraper:kept-records-admin');
    const event = await queuedEvent();
    expect((await server.call('DELETE', `/api/db/job_history?id=eq.${run}`, admin)).status).toBeLessThan(300);
    expect((await server.call('DELETE', `/api/db/event_queue?id=eq.${event}`, admin)).status).toBeLessThan(300);
    expect(await exists('job_history', run)).toBe(false);
    expect(await exists('event_queue', event)).toBe(false);
  });

  it('still lets an editor make changes whose triggers queue events, such as opening an incident', async () => {
    // A consumer that wants the event, as a notification on incident.created would subscribe it.
    await server.pool.query(`insert into event_queue_subscriptions (consumer, name) values ('kept-records', 'incident.created') on conflict do nothing`);
    const opened = await server.call('POST', '/api/db/incidents', editor, { title: 'Kept records still let editors work', severity: 'low', type: 'availability' });
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    const queued = await server.pool.query(
      `select e.name from event_queue e join incidents i on i.id::text = e.properties ->> 'incident_id' where i.title = $1`,
      ['Kept records still let editors work'],
    );
    expect(queued.rowCount).toBeGreaterThan(0);
  });
});
