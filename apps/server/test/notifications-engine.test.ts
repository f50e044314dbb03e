import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { enqueue, type QueuedEvent } from '../src/platform/event-queue';
import type { ResolvedConnection } from '../src/modules/connections';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationEngine, notificationHandlers } from '../src/modules/notifications/notification-engine';
import { deliverNotification, type DeliverNotification, type NotificationMessage } from '../src/modules/notification-providers';
import { TEST_SECRET_KEY } from './global-setup';
import { startTestServer, type TestServer } from './harness';

interface Delivery {
  connection: ResolvedConnection;
  message: NotificationMessage;
}

interface HistoryRow {
  status: string;
  attempts: number;
  error: string | null;
  reason: string | null;
  recipient: string;
  person_id: string | null;
  source_event: string;
  resource_id: string;
  body: string;
  duration_millis: number | null;
}

describe('notification delivery', () => {
  let server: TestServer;
  let checkId: string;
  let editorId: string;
  const deliveries: Delivery[] = [];
  let failures = 0;

  /** Records each message; fails the next `failures` calls as a provider answering 503 would. */
  const deliver: DeliverNotification = async (connection, message) => {
    if (failures > 0) {
      failures -= 1;
      throw new Error('webhook answered 503 Service Unavailable');
    }
    deliveries.push({ connection, message });
    return { providerMessageId: null };
  };

  const handlers = () =>
    notificationHandlers({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' });

  const consumer = (leaseMs = 0) =>
    new NotificationDeliveryConsumer({ pool: server.pool, bus: server.running.context.bus, consumer: NOTIFICATION_CONSUMER, handlers: handlers(), leaseMs, backoffMs: 0, claimBatch: 1 });

  async function notification(fields: Record<string, unknown>): Promise<string> {
    const columns = Object.keys(fields);
    const result = await server.pool.query<{ id: string }>(
      `insert into notifications (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
      columns.map((column) => {
        const value = fields[column];
        return typeof value === 'object' && value !== null && !Array.isArray(value) ? JSON.stringify(value) : column === 'custom_services' ? JSON.stringify(value) : value;
      }),
    );
    return result.rows[0]?.id ?? '';
  }

  async function history(notificationId: string): Promise<HistoryRow[]> {
    const result = await server.pool.query<HistoryRow>(
      `select status, attempts, error, reason, recipient, person_id, source_event, resource_id, body, duration_millis
         from notification_send_history where notification_id = $1 order by created_at, recipient`,
      [notificationId],
    );
    return result.rows;
  }

  const checkEvent = (name: 'check.failed' | 'check.passed', id = checkId) =>
    enqueue(server.pool, name, { id, check_id: id, name: 'api health', status: name === 'check.failed' ? 'unhealthy' : 'healthy', error: 'connection refused' });

  beforeAll(async () => {
    server = await startTestServer();
    // Demo notifications in the template would also match these events.
    await server.pool.query('update notifications set deleted_at = now() where deleted_at is null');
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name) values ('notification-tests') returning id`);
    const check = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, status) values ($1, 'http', 'api health', 'unhealthy') returning id`,
      [canary.rows[0]?.id],
    );
    checkId = check.rows[0]?.id ?? '';
    editorId = (await server.pool.query<{ id: string }>(`select id from people where email = 'editor@opsdeck.local'`)).rows[0]?.id ?? '';
    await server.pool.query(
      `insert into connections (name, namespace, type, url, properties) values
         ('engine-hook', 'default', 'generic_webhook', 'http://127.0.0.1:9/hook', '{}'),
         ('engine-mail', 'default', 'email', 'smtp://127.0.0.1:9', '{"from": "opsdeck@example.test"}')`,
    );
  });
  afterEach(async () => {
    deliveries.length = 0;
    failures = 0;
    await server.pool.query('update notifications set deleted_at = now() where deleted_at is null');
  });
  afterAll(async () => {
    await server.close();
  });

  it('delivers a failed check to a notification whose filter passes and not to one whose filter fails', async () => {
    const passing = await notification({ events: ['check.failed'], filter: "check.name == 'api health' && event.name == 'check.failed'", custom_services: [{ connection: 'connection://default/engine-hook', name: 'hook', path: '/x' }] });
    const failing = await notification({ events: ['check.failed'], filter: "check.type == 'tcp'", custom_services: [{ connection: 'engine-hook' }] });
    await checkEvent('check.failed');
    expect(await consumer().drain()).toBe(1);
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery?.connection.name).toBe('engine-hook');
    expect(delivery?.message).toMatchObject({ title: 'Check api health failed', url: `https://opsdeck.test/health?checkId=${checkId}`, to: [], options: { path: '/x' } });
    expect(delivery?.message.body).toContain(`[View the check in Opsdeck](https://opsdeck.test/health?checkId=${checkId})`);
    expect(delivery?.message.body).toContain('connection refused');
    expect(await history(passing)).toMatchObject([{ status: 'sent', attempts: 1, error: null, source_event: 'check.failed', resource_id: checkId, recipient: 'service:connection://default/engine-hook#hook' }]);
    expect(await history(failing)).toEqual([]);
    const jobs = await server.pool.query(`select 1 from job_history where name = 'EventQueueConsumer:notifications'`);
    expect(jobs.rowCount).toBeGreaterThan(0);
  });

  it("sends a person's message to their email, a team's to each member and a custom service's to its connection", async () => {
    const team = await server.pool.query<{ id: string }>(`insert into teams (name) values ('engine-team') returning id`);
    const teamId = team.rows[0]?.id ?? '';
    await server.pool.query(
      `insert into team_members (team_id, person_id) select $1, id from people where email in ('admin@opsdeck.local', 'viewer@opsdeck.local')`,
      [teamId],
    );
    const person = await notification({ events: ['check.failed'], person_id: editorId, template: '{{ check.name }} is {{ check.status }}' });
    const members = await notification({ events: ['check.failed'], team_id: teamId, properties: { connection: 'engine-mail' } });
    const service = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }] });
    await checkEvent('check.failed');
    await consumer().drain();
    const sent = deliveries.map((d) => [d.connection.type, d.message.to.join(',')]).sort();
    expect(sent).toEqual([
      ['email', 'admin@opsdeck.local'],
      ['email', 'editor@opsdeck.local'],
      ['email', 'viewer@opsdeck.local'],
      ['generic_webhook', ''],
    ]);
    expect(deliveries.find((d) => d.message.to[0] === 'editor@opsdeck.local')?.message.body).toBe('api health is unhealthy');
    expect(await history(person)).toMatchObject([{ status: 'sent', person_id: editorId, recipient: 'email:editor@opsdeck.local' }]);
    expect((await history(members)).map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(await history(service)).toMatchObject([{ status: 'sent', person_id: null }]);
  });

  it("sends a team's message to the channels its spec names instead of its members", async () => {
    const team = await server.pool.query<{ id: string }>(
      `insert into teams (name, spec) values ('engine-channels', $1) returning id`,
      [JSON.stringify({ notifications: [{ connection: 'engine-hook', channel: '#ops' }] })],
    );
    await server.pool.query(`insert into team_members (team_id, person_id) select $1, id from people where email = 'admin@opsdeck.local'`, [team.rows[0]?.id]);
    await notification({ events: ['check.failed'], team_id: team.rows[0]?.id });
    await checkEvent('check.failed');
    await consumer().drain();
    expect(deliveries.map((d) => [d.connection.name, d.message.options])).toEqual([['engine-hook', { channel: '#ops' }]]);
  });

  it('retries a failing delivery until it is sent, once, after three attempts', async () => {
    const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }] });
    failures = 2;
    const eventId = await checkEvent('check.failed');
    await consumer().drain();
    expect(deliveries).toHaveLength(1);
    expect(await history(id)).toMatchObject([{ status: 'sent', attempts: 3, error: null, duration_millis: expect.any(Number) }]);
    const left = await server.pool.query('select 1 from event_queue where id = $1 or (name = $2 and consumer = $3)', [eventId, 'check.failed', NOTIFICATION_CONSUMER]);
    expect(left.rowCount).toBe(0);
  });

  it('retries through a real webhook that answers 503 twice: three requests with one idempotency key, one delivery', async () => {
    const requests: Array<{ key: string | undefined; body: string }> = [];
    const peer = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const key = request.headers['idempotency-key'];
        requests.push({ key: Array.isArray(key) ? key[0] : key, body });
        response.writeHead(requests.length <= 2 ? 503 : 200, { 'content-type': 'application/json' }).end(requests.length <= 2 ? '{"error":"busy"}' : '{}');
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = peer.address() as AddressInfo;
      await server.pool.query(`insert into connections (name, namespace, type, url, properties) values ('engine-real-hook', 'default', 'generic_webhook', $1, '{}')`, [
        `http://127.0.0.1:${port}/hook`,
      ]);
      const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-real-hook' }] });
      await checkEvent('check.failed');
      const real = new NotificationDeliveryConsumer({
        pool: server.pool,
        bus: server.running.context.bus,
        consumer: NOTIFICATION_CONSUMER,
        handlers: notificationHandlers({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver: deliverNotification, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' }),
        leaseMs: 0,
        backoffMs: 0,
        claimBatch: 1,
      });
      await real.drain();
      expect(requests).toHaveLength(3);
      expect(new Set(requests.map((request) => request.key)).size).toBe(1);
      expect(requests[0]?.key).toEqual(expect.any(String));
      expect(JSON.parse(requests[2]?.body ?? '{}')).toMatchObject({ title: expect.stringContaining('api health') });
      expect(await history(id)).toMatchObject([{ status: 'sent', attempts: 3, error: null }]);
      await real.drain();
      expect(requests).toHaveLength(3);
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
    }
  });

  it('keeps the failure and its error on the history row once the queue gives up', async () => {
    const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }] });
    failures = 100;
    await checkEvent('check.failed');
    const giving = new NotificationDeliveryConsumer({ pool: server.pool, bus: server.running.context.bus, consumer: NOTIFICATION_CONSUMER, handlers: handlers(), leaseMs: 0, backoffMs: 0, claimBatch: 1, maxAttempts: 3 });
    await giving.drain();
    expect(await history(id)).toMatchObject([{ status: 'failed', attempts: 3, error: 'webhook answered 503 Service Unavailable' }]);
    const queued = await server.pool.query<{ attempts: number; error: string }>(`select attempts, error from event_queue where consumer = $1 and name = 'check.failed'`, [NOTIFICATION_CONSUMER]);
    expect(queued.rows).toMatchObject([{ attempts: 3, error: expect.stringContaining('503') }]);
    await server.pool.query(`delete from event_queue where consumer = $1`, [NOTIFICATION_CONSUMER]);
  });

  it('records each send to a connection that does not exist yet as failed, naming the connection', async () => {
    const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'connection://default/not-created-yet' }] });
    await checkEvent('check.failed');
    const giving = new NotificationDeliveryConsumer({ pool: server.pool, bus: server.running.context.bus, consumer: NOTIFICATION_CONSUMER, handlers: handlers(), leaseMs: 0, backoffMs: 0, claimBatch: 1, maxAttempts: 1 });
    await giving.drain();
    expect(await history(id)).toMatchObject([{ status: 'failed', error: "Connection 'connection://default/not-created-yet' not found" }]);
    await server.pool.query(`update notifications set deleted_at = now() where id = $1`, [id]);
    await server.pool.query(`delete from event_queue where consumer = $1`, [NOTIFICATION_CONSUMER]);
  });

  describe('waitFor', () => {
    const engine = () =>
      notificationEngine({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' });
    const setStatus = (status: string) => server.pool.query(`update checks set status = $2 where id = $1`, [checkId, status]);
    const makeDue = (id: string) => server.pool.query(`update notification_send_history set not_before = now() - interval '1 second' where notification_id = $1 and status = 'pending'`, [id]);

    afterEach(async () => {
      await setStatus('unhealthy');
    });

    it('holds a failed check for its waitFor, then sends it to every recipient because the check is still failing', async () => {
      const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }], properties: { waitFor: '2m' } });
      await checkEvent('check.failed');
      await consumer().drain();
      expect(deliveries).toHaveLength(0);
      expect(await history(id)).toMatchObject([{ status: 'pending', recipient: 'waitFor', reason: 'Waiting 2m (waitFor): sent then only if the check is still unhealthy' }]);
      expect(await engine().releaseWaiting()).toBe(0);

      await makeDue(id);
      expect(await engine().releaseWaiting()).toBe(1);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]?.message.title).toBe('Check api health failed');
      expect(await history(id)).toMatchObject([{ status: 'sent', recipient: 'service:engine-hook', reason: 'Sent after waiting 2m (waitFor): the check was still unhealthy' }]);
    });

    it('records a held failure as skipped, and sends nothing, when the check passed during the wait', async () => {
      const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }], properties: { waitFor: '5m' } });
      await checkEvent('check.failed');
      await consumer().drain();
      await setStatus('healthy');
      await makeDue(id);
      expect(await engine().releaseWaiting()).toBe(1);
      expect(deliveries).toHaveLength(0);
      expect(await history(id)).toMatchObject([{ status: 'skipped', recipient: 'waitFor', reason: 'Waited 5m (waitFor): the check is healthy now, so check.failed was not sent' }]);
    });

    it('keeps a held event whose sends failed, tries it again later, and leaves it failed after three releases', async () => {
      const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }], properties: { waitFor: '1m' } });
      await checkEvent('check.failed');
      await consumer().drain();
      failures = 100;
      for (let release = 1; release <= 3; release += 1) {
        await makeDue(id);
        expect(await engine().releaseWaiting(), `release ${release}`).toBe(1);
      }
      const rows = await history(id);
      expect(rows.find((row) => row.recipient === 'waitFor')).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('503') });
      expect(rows.find((row) => row.recipient !== 'waitFor')).toMatchObject({ status: 'failed', error: 'webhook answered 503 Service Unavailable' });
      expect(await engine().releaseWaiting()).toBe(0);
    });

    it('sends events that are not about health at once, whatever the wait', async () => {
      const id = await notification({ events: ['check.failed', 'check.passed'], custom_services: [{ connection: 'engine-hook' }], properties: { waitFor: '2m' } });
      const configId = (await server.pool.query<{ id: string }>(`insert into config_items (name, type, config_class) values ('wait-cfg', 'App::Thing', 'App') returning id`)).rows[0]?.id ?? '';
      const updates = await notification({ events: ['config.updated'], custom_services: [{ connection: 'engine-hook' }], properties: { waitFor: '2m' } });
      await enqueue(server.pool, 'config.updated', { id: configId, config_id: configId });
      await consumer().drain();
      expect(await history(updates)).toMatchObject([{ status: 'sent' }]);
      expect(await history(id)).toEqual([]);
    });
  });

  it('subscribes the consumer to exactly the events of live notifications', async () => {
    const subscribed = async () =>
      (await server.pool.query<{ name: string }>(`select name from event_queue_subscriptions where consumer = $1 order by name`, [NOTIFICATION_CONSUMER])).rows.map((row) => row.name);
    expect(await subscribed()).toEqual([]);
    const id = await notification({ events: ['config.created', 'check.failed'], custom_services: [{ connection: 'engine-hook' }] });
    expect(await subscribed()).toEqual(['check.failed', 'config.created']);
    await server.pool.query('update notifications set deleted_at = now() where id = $1', [id]);
    expect(await subscribed()).toEqual([]);
  });

  it('does not send again when the same event is handled a second time', async () => {
    const id = await notification({ events: ['check.failed'], custom_services: [{ connection: 'engine-hook' }] });
    const event: QueuedEvent = {
      id: '00000000-0000-4000-8000-000000000016',
      name: 'check.failed',
      properties: { id: checkId, check_id: checkId },
      attempts: 1,
      priority: 0,
      created_at: new Date().toISOString(),
    };
    const handle = handlers()['check.failed'];
    await handle(event);
    await handle({ ...event, attempts: 2 });
    expect(deliveries).toHaveLength(1);
    expect(await history(id)).toHaveLength(1);
  });

  it('sends one message for a check that flips ten times inside the flap window and records the other flips as skipped', async () => {
    const id = await notification({ events: ['check.failed', 'check.passed'], custom_services: [{ connection: 'engine-hook' }] });
    for (let flip = 0; flip < 10; flip += 1) await checkEvent(flip % 2 === 0 ? 'check.failed' : 'check.passed');
    expect(await consumer().drain()).toBe(10);
    expect(deliveries).toHaveLength(1);
    const rows = await history(id);
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(1);
    const skipped = rows.filter((row) => row.status === 'skipped');
    expect(skipped).toHaveLength(9);
    for (const row of skipped) expect(row.reason).toMatch(/^Flapping: check\.failed was sent at .+, inside the flap window of 300 s$/);
  });

  it('sends one message for ten flips when two delivery loops handle them at once', async () => {
    const id = await notification({ events: ['check.failed', 'check.passed'], custom_services: [{ connection: 'engine-hook' }] });
    for (let flip = 0; flip < 10; flip += 1) await checkEvent(flip % 2 === 0 ? 'check.failed' : 'check.passed');
    // A lease, so the two loops split the events rather than both taking each one.
    const handled = await Promise.all([consumer(60_000).drain(), consumer(60_000).drain()]);
    expect(handled[0] + handled[1]).toBe(10);
    expect(deliveries).toHaveLength(1);
    expect((await history(id)).filter((row) => row.status === 'skipped')).toHaveLength(9);
  });

  it('sends every flip when the notification sets its flap window to zero', async () => {
    await notification({ events: ['check.failed', 'check.passed'], custom_services: [{ connection: 'engine-hook' }], properties: { flapWindowSeconds: 0 } });
    // Each flip is handled before the next is queued: events queued in the same instant have no order between them.
    for (let flip = 0; flip < 3; flip += 1) {
      await checkEvent(flip % 2 === 0 ? 'check.failed' : 'check.passed');
      await consumer().drain();
    }
    expect(deliveries.map((d) => d.message.title)).toEqual(['Check api health failed', 'Check api health passed', 'Check api health failed']);
  });
});
