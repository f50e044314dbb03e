import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/** Send test (#34 item 18): the editor's button sends one message per recipient, through the notification's own connections. */
describe('sending a test of a notification', () => {
  let server: TestServer;
  let peer: Server;
  const received: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = await startTestServer();
    peer = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body === '' ? '{}' : body) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const { port } = peer.address() as AddressInfo;
    await server.pool.query(
      `insert into connections (name, namespace, type, url, properties) values
         ('test-send-hook', 'default', 'generic_webhook', $1, '{}'),
         ('test-send-dead', 'default', 'generic_webhook', 'http://127.0.0.1:9/hook', '{}')`,
      [`http://127.0.0.1:${port}/hook`],
    );
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => peer.close(() => resolve()));
    await server.close();
  });

  async function notification(services: Array<Record<string, string>>): Promise<string> {
    const created = await server.pool.query<{ id: string }>(
      `insert into notifications (name, events, custom_services) values ($1, '{check.failed}', $2) returning id`,
      [`test-send-${randomUUID().slice(0, 8)}`, JSON.stringify(services)],
    );
    return created.rows[0]?.id ?? '';
  }

  it('sends one plainly worded message to each recipient and answers how each went, recording nothing in the history', async () => {
    const id = await notification([{ connection: 'test-send-hook' }, { connection: 'test-send-dead' }]);
    const reply = await server.call('POST', `/api/notifications/${id}/test`, await server.cookieFor('editor'));
    expect(reply.status, reply.text).toBe(200);
    const results = (reply.json as unknown as { results: Array<{ recipient: string; status: string; detail: string | null }> }).results;
    expect(results).toEqual([
      { recipient: 'service:test-send-hook', status: 'sent', detail: null },
      { recipient: 'service:test-send-dead', status: 'failed', detail: expect.stringContaining('ECONNREFUSED') },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ title: expect.stringMatching(/^Test of the notification test-send-/) });
    expect(JSON.stringify(received[0])).toContain('not again while it stays the same');
    const history = await server.pool.query('select 1 from notification_send_history where notification_id = $1', [id]);
    expect(history.rowCount).toBe(0);
  });

  it('is refused to a role that may not write notifications, and answers 404 for a notification that does not exist', async () => {
    const id = await notification([{ connection: 'test-send-hook' }]);
    const before = received.length;
    const viewer = await server.call('POST', `/api/notifications/${id}/test`, await server.cookieFor('viewer'));
    expect(viewer.status).toBe(403);
    expect(received).toHaveLength(before);
    const missing = await server.call('POST', `/api/notifications/${randomUUID()}/test`, await server.cookieFor('editor'));
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'OD404' });
  });
});
