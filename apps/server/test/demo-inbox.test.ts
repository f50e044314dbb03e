import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_CONNECTION, DEMO_WEBHOOK_CONNECTION } from '../src/seed/notifications';
import { DEMO_NOTIFICATION_CONNECTION } from '../src/seed/playbooks';
import { startTestServer, waitForRunEnd, type TestServer } from './harness';

interface InboxMessage {
  kind: 'webhook' | 'email';
  channel: string;
  recipients: string[];
  subject: string | null;
  body: string;
}

interface Inbox {
  enabled: boolean;
  smtp: string | null;
  messages: InboxMessage[];
}

async function inbox(server: TestServer, cookie: string): Promise<Inbox> {
  const reply = await server.call('GET', '/api/demo-inbox', cookie);
  expect(reply.status, reply.text).toBe(200);
  return reply.json as unknown as Inbox;
}

async function waitForMessage(server: TestServer, cookie: string, found: (message: InboxMessage) => boolean): Promise<InboxMessage> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const message = (await inbox(server, cookie)).messages.find(found);
    if (message !== undefined) return message;
    if (Date.now() > deadline) throw new Error('the message never reached the demo inbox');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** #34 item 2: the demo's webhook and mail connections deliver into an inbox of the server's own. */
describe('the demo inbox of a server seeding the demo data', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ workers: true, env: { OPSDECK_SEED_DEMO: 'true' } });
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  it("points the demo's connections at this run's webhook address and mail port, whatever the seed wrote", async () => {
    const state = await inbox(server, admin);
    expect(state.enabled).toBe(true);
    expect(state.smtp).toMatch(/^127\.0\.0\.1:\d+$/);
    // The webhooks are retargeted once the server listens, which its start does not wait for.
    const urls = async (): Promise<Record<string, string>> => {
      const rows = await server.pool.query<{ name: string; url: string }>('select name, url from connections where source = $1 and deleted_at is null', ['demo-inbox']);
      return Object.fromEntries(rows.rows.map((row) => [row.name, row.url]));
    };
    const deadline = Date.now() + 10_000;
    while (!(await urls())[DEMO_WEBHOOK_CONNECTION]?.startsWith(server.url) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await urls()).toEqual({
      [DEMO_WEBHOOK_CONNECTION]: `${server.url}/api/demo-inbox/hooks/opsdeck`,
      [DEMO_EMAIL_CONNECTION]: state.smtp,
      [DEMO_NOTIFICATION_CONNECTION]: `${server.url}/api/demo-inbox/hooks/ops-alerts`,
    });
  });

  it("receives the demo notifications' test messages by mail and by webhook", async () => {
    const notifications = await server.pool.query<{ id: string; name: string }>(`select id, name from notifications where name in ('Failing checks', 'Config changes')`);
    for (const notification of notifications.rows) {
      const reply = await server.call('POST', `/api/notifications/${notification.id}/test`, admin);
      expect(reply.status, reply.text).toBe(200);
      const results = (reply.json as unknown as { results: Array<{ status: string; detail: string | null }> }).results;
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) expect(result, JSON.stringify(result)).toMatchObject({ status: 'sent' });
    }
    const mail = await waitForMessage(server, admin, (message) => message.kind === 'email' && (message.subject ?? '').includes('Failing checks'));
    expect(mail.recipients.length).toBeGreaterThan(0);
    expect(mail.body).toContain('not again while it stays the same');
    const hook = await waitForMessage(server, admin, (message) => message.kind === 'webhook' && message.channel === 'opsdeck');
    expect(hook.body).toContain('Test of the notification Config changes');
  });

  it('runs the paging demo playbook to success, its message arriving in the inbox', async () => {
    const check = await server.pool.query<{ id: string }>(`select id from checks where name = 'backup/nightly-job' and deleted_at is null`);
    const playbook = await server.pool.query<{ id: string }>(`select id from playbooks where name = 'page-on-call' and deleted_at is null`);
    const reply = await server.call('POST', '/api/playbook/run', admin, {
      id: playbook.rows[0]?.id,
      check_id: check.rows[0]?.id,
      params: { message: 'inbox-run-marker: the nightly backup failed again' },
    });
    expect(reply.status, reply.text).toBe(201);
    const runId = String(reply.json.run_id);
    expect(await waitForRunEnd(server, runId)).toBe('completed');
    const message = await waitForMessage(server, admin, (entry) => entry.channel === 'ops-alerts' && entry.body.includes('inbox-run-marker'));
    expect(message.kind).toBe('webhook');
  });

  it('shows the inbox to a viewer, and lets only a role that writes notifications empty it', async () => {
    const viewer = await server.cookieFor('viewer');
    expect((await inbox(server, viewer)).enabled).toBe(true);
    expect((await server.call('DELETE', '/api/demo-inbox', viewer)).status).toBe(403);
    const cleared = await server.call('DELETE', '/api/demo-inbox', admin);
    expect(cleared.status, cleared.text).toBe(200);
    expect((await inbox(server, admin)).messages).toEqual([]);
  });

  it('refuses a webhook sent from another machine, so nobody else can write into it', async () => {
    const reply = await server.running.app.inject({
      method: 'POST',
      url: '/api/demo-inbox/hooks/opsdeck',
      remoteAddress: '203.0.113.7',
      headers: { 'content-type': 'application/json' },
      payload: '{"title":"from elsewhere"}',
    });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ code: 'OD_DEMO_INBOX_OFF' });
    expect((await inbox(server, admin)).messages.some((message) => message.body.includes('from elsewhere'))).toBe(false);
  });

  it('refuses a webhook body over 256 KiB with 413, and keeps a text body as sent', async () => {
    const big = await fetch(`${server.url}/api/demo-inbox/hooks/opsdeck`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(300 * 1024) });
    expect(big.status).toBe(413);
    const text = await fetch(`${server.url}/api/demo-inbox/hooks/plain`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'plain <b>words</b>' });
    expect(text.status).toBe(204);
    expect(await waitForMessage(server, admin, (message) => message.channel === 'plain')).toMatchObject({ body: 'plain <b>words</b>' });
  });
});

describe('the demo inbox of a server without the demo data', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('says it is off, and receives nothing', async () => {
    const admin = await server.cookieFor('admin');
    expect(await inbox(server, admin)).toMatchObject({ enabled: false, smtp: null, messages: [] });
    const reply = await fetch(`${server.url}/api/demo-inbox/hooks/opsdeck`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reply.status).toBe(404);
    expect(await reply.json()).toMatchObject({ code: 'OD_DEMO_INBOX_OFF' });
    expect((await server.call('DELETE', '/api/demo-inbox', admin)).status).toBe(404);
  });
});
