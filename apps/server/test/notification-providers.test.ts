import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ResolvedConnection } from '../src/modules/connections/connection-store';
import { testConnection } from '../src/modules/connections/connection-test';
import { DELIVERABLE_NOTIFICATION_TYPES, deliverNotification, isDeliverableType } from '../src/modules/notification-providers';
import type { NotificationMessage } from '../src/modules/notification-providers';

const TOKEN = 'xoxb-very-secret-token-4242';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Peer {
  base: string;
  requests: Received[];
}

type Answer = { status: number; body: string } | 'hang';

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A loopback HTTP server standing in for a provider's API, recording each request and answering as told. */
async function startPeer(answer: (request: Received) => Answer = () => ({ status: 200, body: '{}' })): Promise<Peer> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      const reply = answer(received);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function connection(type: string, fields: Partial<ResolvedConnection> = {}): ResolvedConnection {
  return {
    id: null,
    name: `${type}-test`,
    namespace: 'default',
    type,
    url: null,
    username: null,
    password: null,
    certificate: null,
    insecureTls: false,
    properties: {},
    secretProperties: {},
    ...fields,
  };
}

interface SmtpPeer {
  port: number;
  mails: ParsedMail[];
  envelopes: { from: string; to: string[] }[];
  close: () => Promise<void>;
}

/** A real SMTP server on loopback that accepts mailer/mail-secret and parses every mail it receives. */
async function startSmtp(): Promise<SmtpPeer> {
  const mails: ParsedMail[] = [];
  const envelopes: { from: string; to: string[] }[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      envelopes.push({
        from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((recipient) => recipient.address),
      });
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    mails,
    envelopes,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

function emailConnection(port: number): ResolvedConnection {
  return connection('email', {
    url: `127.0.0.1:${port}`,
    username: 'mailer',
    password: 'mail-secret',
    properties: { from: 'opsdeck@example.com', fromName: 'Opsdeck Alerts', encryptionMethod: 'None', authMethod: 'Plain' },
  });
}

function message(overrides: Partial<NotificationMessage> = {}): NotificationMessage {
  return {
    idempotencyKey: 'event-1:person-1',
    title: 'Check api-health failed',
    body: '**api-health** is failing: see [the runbook](https://runbooks.example.com/api) <script>alert(1)</script>',
    url: 'https://opsdeck.example.com/health/checks/1',
    to: ['oncall@example.com'],
    options: {},
    ...overrides,
  };
}

const send = (target: ResolvedConnection, overrides: Partial<NotificationMessage> = {}) =>
  deliverNotification(target, message(overrides), { signal: new AbortController().signal });

function jsonOf(request: Received | undefined): unknown {
  return JSON.parse(request?.body ?? 'null') as unknown;
}

describe('notification providers', () => {
  it('lists the deliverable types and rejects a type it cannot send through', async () => {
    expect(DELIVERABLE_NOTIFICATION_TYPES).toEqual(['email', 'slack', 'generic_webhook', 'teams', 'discord', 'google_chat', 'mattermost', 'ntfy', 'telegram']);
    expect(isDeliverableType('slack')).toBe(true);
    expect(isDeliverableType('pushover')).toBe(false);
    await expect(send(connection('pushover'))).rejects.toThrow("Notifications cannot be sent through a 'pushover' connection");
  });

  it('sends an email with an HTML part rendered from the Markdown, a text part and a Message-ID derived from the idempotency key', async () => {
    const smtp = await startSmtp();
    try {
      const target = emailConnection(smtp.port);
      const receipt = await send(target, { to: ['oncall@example.com', 'lead@example.com'] });
      await send(target);

      expect(smtp.envelopes[0]).toEqual({ from: 'opsdeck@example.com', to: ['oncall@example.com', 'lead@example.com'] });
      const mail = smtp.mails[0];
      expect(mail?.from?.value).toEqual([{ address: 'opsdeck@example.com', name: 'Opsdeck Alerts' }]);
      expect(mail?.subject).toBe('Check api-health failed');
      expect(mail?.html).toContain('<strong>api-health</strong> is failing: see <a href="https://runbooks.example.com/api">the runbook</a>');
      expect(mail?.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail?.html).not.toContain('<script>');
      expect(mail?.text).toContain('api-health is failing: see the runbook (https://runbooks.example.com/api)');
      expect(mail?.text).toContain('https://opsdeck.example.com/health/checks/1');
      expect(mail?.messageId).toMatch(/^<[0-9a-f]{40}@example\.com>$/);
      expect(receipt.providerMessageId).toBe(mail?.messageId);
      expect(smtp.mails[1]?.messageId).toBe(mail?.messageId);

      await expect(send({ ...target, password: 'wrong-password' })).rejects.toThrow(/Invalid login|535/);
    } finally {
      await smtp.close();
    }
  });

  it('posts to Slack chat.postMessage with the bot token and mrkdwn text in the overriding channel', async () => {
    const slack = await startPeer(() => ({ status: 200, body: JSON.stringify({ ok: true, channel: 'C1', ts: '1700000000.000100' }) }));
    const target = connection('slack', { url: slack.base, password: TOKEN, properties: { channel: '#ops', botName: 'Opsdeck' } });
    const receipt = await send(target, { options: { channel: '#incidents' } });
    const request = slack.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/chat.postMessage');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = jsonOf(request) as Record<string, unknown>;
    expect(body).toMatchObject({ channel: '#incidents', mrkdwn: true, username: 'Opsdeck' });
    expect(body.text).toMatch(/^\*Check api-health failed\*\n/);
    expect(body.text).toContain('*api-health*');
    expect(body.text).toContain('<https://runbooks.example.com/api|the runbook>');
    expect(body.text).toContain('<https://opsdeck.example.com/health/checks/1|Open in Opsdeck>');
    expect(body.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(receipt).toEqual({ providerMessageId: '1700000000.000100' });
  });

  it("rejects with Slack's error when Slack answers 200 with ok false", async () => {
    const slack = await startPeer(() => ({ status: 200, body: JSON.stringify({ ok: false, error: 'channel_not_found' }) }));
    await expect(send(connection('slack', { url: slack.base, password: TOKEN, properties: { channel: '#gone' } }))).rejects.toThrow(
      'Slack refused the message: channel_not_found',
    );
  });

  it('posts the title and Markdown body to a generic webhook under its keys, with Basic auth', async () => {
    const hook = await startPeer();
    const target = connection('generic_webhook', {
      url: `${hook.base}/hooks/ops?source=opsdeck`,
      username: 'hook-user',
      password: 'hook-password',
      properties: { contentType: 'application/json', requestMethod: 'POST', messageKey: 'text', titleKey: 'subject' },
    });
    await send(target);
    const request = hook.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hooks/ops?source=opsdeck');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-password').toString('base64')}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['idempotency-key']).toBe('event-1:person-1');
    expect(jsonOf(request)).toEqual({ subject: 'Check api-health failed', text: message().body });
  });

  it('sends a generic webhook GET with the title and message as query parameters', async () => {
    const hook = await startPeer();
    await send(connection('generic_webhook', { url: `${hook.base}/get-hook`, properties: { requestMethod: 'GET' } }), { body: 'plain words' });
    const request = hook.requests[0];
    expect(request?.method).toBe('GET');
    expect(request?.body).toBe('');
    expect(request?.url).toBe('/get-hook?title=Check+api-health+failed&message=plain+words');
  });

  it("posts a MessageCard to the Teams incoming-webhook URL built from the connection's fields", async () => {
    const teams = await startPeer(() => ({ status: 200, body: '1' }));
    const target = connection('teams', { properties: { group: 'g-1', tenant: 't-2', altID: 'a-3', groupOwner: 'o-4', host: teams.base } });
    await send(target);
    const request = teams.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/webhookb2/g-1@t-2/IncomingWebhook/a-3/o-4');
    expect(jsonOf(request)).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'Check api-health failed',
      title: 'Check api-health failed',
      text: message().body,
      potentialAction: [{ '@type': 'OpenUri', name: 'Open in Opsdeck', targets: [{ os: 'default', uri: 'https://opsdeck.example.com/health/checks/1' }] }],
    });
  });

  it('posts Discord webhook content of at most 2000 characters that mentions nobody', async () => {
    const discord = await startPeer(() => ({ status: 200, body: JSON.stringify({ id: '112233' }) }));
    const receipt = await send(connection('discord', { url: `${discord.base}/api/webhooks/1/abc` }), { body: `@everyone ${'x'.repeat(3000)}` });
    const request = discord.requests[0];
    expect(request?.url).toBe('/api/webhooks/1/abc?wait=true');
    const body = jsonOf(request) as { content: string; allowed_mentions: unknown };
    expect(body.content.startsWith('**Check api-health failed**\n@everyone')).toBe(true);
    expect(body.content).toHaveLength(2000);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(receipt).toEqual({ providerMessageId: '112233' });
  });

  it("posts Google Chat's text format to its webhook", async () => {
    const chat = await startPeer(() => ({ status: 200, body: JSON.stringify({ name: 'spaces/AAA/messages/BBB' }) }));
    const receipt = await send(connection('google_chat', { url: `${chat.base}/v1/spaces/AAA/messages?key=k&token=t` }), { url: null });
    const request = chat.requests[0];
    expect(request?.url).toBe('/v1/spaces/AAA/messages?key=k&token=t');
    expect(request?.headers['content-type']).toBe('application/json');
    const body = jsonOf(request) as { text: string };
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toMatch(/^\*Check api-health failed\*\n/);
    expect(body.text).toContain('<https://runbooks.example.com/api|the runbook>');
    expect(receipt).toEqual({ providerMessageId: 'spaces/AAA/messages/BBB' });
  });

  it("posts Markdown to a Mattermost webhook with the connection's username and channel", async () => {
    const mattermost = await startPeer(() => ({ status: 200, body: 'ok' }));
    await send(connection('mattermost', { url: `${mattermost.base}/hooks/xyz`, username: 'opsdeck-bot', properties: { channel: 'town-square' } }), { url: null });
    expect(jsonOf(mattermost.requests[0])).toEqual({ text: `#### Check api-health failed\n${message().body}`, username: 'opsdeck-bot', channel: 'town-square' });
  });

  it('publishes to the ntfy topic with Title, Markdown, Click and Basic auth headers', async () => {
    const ntfy = await startPeer(() => ({ status: 200, body: JSON.stringify({ id: 'n1' }) }));
    const target = connection('ntfy', { username: 'phil', password: 'ntfy-password', properties: { host: ntfy.base, topic: 'ops-alerts' } });
    const receipt = await send(target, { title: 'Panne — api' });
    const request = ntfy.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/ops-alerts');
    expect(request?.headers.title).toBe(`=?UTF-8?B?${Buffer.from('Panne — api').toString('base64')}?=`);
    expect(request?.headers.markdown).toBe('yes');
    expect(request?.headers.click).toBe('https://opsdeck.example.com/health/checks/1');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('phil:ntfy-password').toString('base64')}`);
    expect(request?.body).toBe(message().body);
    expect(receipt).toEqual({ providerMessageId: 'n1' });
  });

  it('sends Telegram sendMessage to every chat with HTML-escaped text', async () => {
    let next = 10;
    const telegram = await startPeer(() => ({ status: 200, body: JSON.stringify({ ok: true, result: { message_id: (next += 1) } }) }));
    const receipt = await send(connection('telegram', { url: telegram.base, password: TOKEN, properties: { chats: '-100123, @ops_channel' } }), { url: null });
    expect(telegram.requests.map((request) => request.url)).toEqual([`/bot${TOKEN}/sendMessage`, `/bot${TOKEN}/sendMessage`]);
    expect(telegram.requests.map((request) => (jsonOf(request) as { chat_id: string }).chat_id)).toEqual(['-100123', '@ops_channel']);
    expect(jsonOf(telegram.requests[0])).toEqual({
      chat_id: '-100123',
      parse_mode: 'HTML',
      text: '<b>Check api-health failed</b>\n\napi-health is failing: see the runbook (https://runbooks.example.com/api) &lt;script&gt;alert(1)&lt;/script&gt;',
    });
    expect(receipt).toEqual({ providerMessageId: '11,12' });
  });

  it('rejects a provider answering 500 with the status and an excerpt, without the token', async () => {
    const telegram = await startPeer((request) => ({ status: 500, body: `{"ok":false,"description":"Internal error at ${request.url}"}` }));
    const failure = send(connection('telegram', { url: telegram.base, password: TOKEN, properties: { chats: '1' } }));
    await expect(failure).rejects.toThrow(/^Telegram answered HTTP 500 for chat 1: Internal error at \/bot\[REDACTED\]\/sendMessage$/);

    const hook = await startPeer((request) => ({ status: 500, body: `boom ${request.headers.authorization ?? ''}` }));
    const hookFailure = send(connection('generic_webhook', { url: hook.base, username: 'u', password: 'hook-password' }));
    await expect(hookFailure).rejects.toThrow(/^The webhook answered HTTP 500: boom Basic \[REDACTED\]$/);
  });

  it('rejects when the caller aborts a request the provider never answers', async () => {
    const silent = await startPeer(() => 'hang');
    const controller = new AbortController();
    const pending = deliverNotification(connection('discord', { url: silent.base }), message(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow('the delivery was aborted');
  });

  it('never follows a redirect, so credentials stay with the URL the connection names', async () => {
    const elsewhere = await startPeer();
    const redirecting = await startPeer(() => ({ status: 302, body: '' }));
    const failure = send(connection('ntfy', { username: 'u', password: 'ntfy-password', properties: { host: redirecting.base, topic: 't' } }));
    await expect(failure).rejects.toThrow('ntfy answered HTTP 302');
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('Test Connection of a notification connection', () => {
  // Notification tests never query the database; an unconnected pool satisfies the signature.
  const pool = new pg.Pool({ max: 1 });
  afterAll(async () => {
    await pool.end();
  });

  it('delivers a real test message to a generic webhook', async () => {
    const hook = await startPeer();
    const result = await testConnection(pool, connection('generic_webhook', { url: `${hook.base}/hook` }));
    expect(result).toEqual({ outcome: 'ok', details: { delivered: true, providerMessageId: null } });
    expect(jsonOf(hook.requests[0])).toEqual({ title: 'Opsdeck connection test', message: 'This is a test message from Opsdeck.' });
  });

  it('delivers a real test message to the Slack channel and reports a refusal as a failure', async () => {
    const slack = await startPeer((request) =>
      (jsonOf(request) as { channel: string }).channel === '#ops'
        ? { status: 200, body: JSON.stringify({ ok: true, ts: '1.2' }) }
        : { status: 200, body: JSON.stringify({ ok: false, error: 'not_in_channel' }) },
    );
    const target = connection('slack', { url: slack.base, password: TOKEN, properties: { channel: '#ops' } });
    expect(await testConnection(pool, target)).toEqual({ outcome: 'ok', details: { delivered: true, providerMessageId: '1.2' } });
    expect(jsonOf(slack.requests[0])).toMatchObject({ channel: '#ops', text: '*Opsdeck connection test*\nThis is a test message from Opsdeck.' });
    expect(await testConnection(pool, { ...target, properties: { channel: '#private' } })).toEqual({
      outcome: 'failed',
      message: 'Slack refused the message: not_in_channel',
    });
  });

  it("sends the test mail of an email connection to its own sender", async () => {
    const smtp = await startSmtp();
    try {
      expect(await testConnection(pool, emailConnection(smtp.port))).toMatchObject({ outcome: 'ok', details: { delivered: true } });
      expect(smtp.envelopes).toEqual([{ from: 'opsdeck@example.com', to: ['opsdeck@example.com'] }]);
      expect(smtp.mails[0]?.subject).toBe('Opsdeck connection test');
      expect(smtp.mails[0]?.text).toBe('This is a test message from Opsdeck.');
    } finally {
      await smtp.close();
    }
  });

  it('keeps checking only reachability for a notification type it cannot send through', async () => {
    const pushover = await startPeer(() => ({ status: 200, body: '' }));
    expect(await testConnection(pool, connection('pushover', { url: pushover.base }))).toEqual({ outcome: 'ok', details: { status: 200, reachable: true } });
    expect(pushover.requests[0]?.method).toBe('HEAD');
  });
});
