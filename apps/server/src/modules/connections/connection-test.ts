import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type pg from 'pg';
import { urlWithCredentials, type ResolvedConnection } from './connection-store';
import { NOTIFICATION_CONNECTION_TYPES, isConnectionType, type ConnectionType } from '@opsdeck/shared';
import { notificationDelivery } from './notification-delivery';
import { httpProbe } from './probes/bounded-http';
import { mongoProbe, mysqlProbe, postgresProbe, redisProbe } from './probes/database-probes';
import { databaseGuard } from './probes/local-database';
import { gitProbe, sftpProbe, smtpProbe } from './probes/remote-probes';

export type ConnectionTestResult = { outcome: 'ok'; details: Record<string, unknown> } | { outcome: 'failed'; message: string } | { outcome: 'unsupported' };

/** Where a notification service is reached when the connection does not name a URL. */
const NOTIFICATION_HOSTS: Partial<Record<ConnectionType, string>> = {
  pushover: 'https://api.pushover.net',
  pushbullet: 'https://api.pushbullet.com',
  ifttt: 'https://maker.ifttt.com',
};

function required(value: string | null, what: string): string {
  if (value === null || value.trim() === '') throw new Error(`${what} is required`);
  return value;
}

function hostAndPort(raw: string, defaultPort: number): { host: string; port: number } {
  const withoutScheme = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(withoutScheme);
  if (match === null) throw new Error(`Invalid host '${raw}'`);
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port: match[2] === undefined ? defaultPort : Number(match[2]) };
}

function notificationUrl(connection: ResolvedConnection, type: ConnectionType): string {
  if (connection.url !== null && connection.url !== '') return connection.url;
  if (type === 'opsgenie') return `https://${connection.properties.host ?? 'api.opsgenie.com'}:${connection.properties.port ?? '443'}`;
  const fallback = NOTIFICATION_HOSTS[type];
  if (fallback === undefined) throw new Error('URL is required');
  return fallback;
}

const TEST_MESSAGE = { title: 'Opsdeck connection test', body: 'This is a test message from Opsdeck.' };
/** Telegram sends once per chat, each bounded by the providers' own 10 s timeout; this caps the whole test. */
const TEST_DELIVERY_TIMEOUT_MS = 30_000;

/** Email goes to the connection's own `to` property when it has one, else back to its sender. */
function testRecipients(connection: ResolvedConnection): string[] {
  const to = connection.properties.to ?? connection.properties.from ?? '';
  return to
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

async function testNotification(connection: ResolvedConnection, type: ConnectionType): Promise<Record<string, unknown>> {
  const delivery = notificationDelivery();
  if (delivery?.canDeliver(type)) {
    // A real message is the only proof that the token, channel or address works; the user asked for the test.
    const receipt = await delivery.deliver(
      connection,
      { idempotencyKey: `connection-test:${randomUUID()}`, ...TEST_MESSAGE, url: null, to: testRecipients(connection), options: {} },
      { signal: AbortSignal.timeout(TEST_DELIVERY_TIMEOUT_MS) },
    );
    return { delivered: true, providerMessageId: receipt.providerMessageId };
  }
  const url = notificationUrl(connection, type);
  if (type === 'webhook') {
    // The receiver is ours to define, so a real test message is harmless.
    const body = JSON.stringify({ title: TEST_MESSAGE.title, message: TEST_MESSAGE.body });
    const response = await httpProbe({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      username: connection.username,
      password: connection.password,
      insecureTls: connection.insecureTls,
    });
    if (response.status >= 400) throw new Error(`The webhook answered HTTP ${response.status}`);
    return { status: response.status };
  }
  // Opsdeck cannot send through these services yet, so reaching the service is the test.
  const response = await httpProbe({ url, method: 'HEAD', insecureTls: connection.insecureTls });
  return { status: response.status, reachable: true };
}

/** Really connects to the target of the connection, bounded by the probes' timeouts and size caps. */
export async function testConnection(pool: pg.Pool, connection: ResolvedConnection): Promise<ConnectionTestResult> {
  const { type } = connection;
  if (!isConnectionType(type)) return { outcome: 'unsupported' };
  try {
    const details = await runTest(pool, connection, type);
    return details === null ? { outcome: 'unsupported' } : { outcome: 'ok', details };
  } catch (error) {
    return { outcome: 'failed', message: error instanceof Error ? error.message || error.name : String(error) };
  }
}

async function runTest(pool: pg.Pool, connection: ResolvedConnection, type: ConnectionType): Promise<Record<string, unknown> | null> {
  switch (type) {
    case 'postgres': {
      const target = urlWithCredentials({ ...connection, url: required(connection.url, 'URL') });
      const result = await postgresProbe(target, 'select version() as version', await databaseGuard(pool));
      return { version: result.firstRow?.version ?? null };
    }
    case 'mysql': {
      const result = await mysqlProbe(urlWithCredentials({ ...connection, url: required(connection.url, 'URL') }), 'select version() as version', await databaseGuard(pool));
      return { version: result.firstRow?.version ?? null };
    }
    case 'redis': {
      const reply = await redisProbe({
        url: required(connection.url, 'URL'),
        username: connection.username,
        password: connection.password,
        db: Number(connection.properties.db ?? '0'),
      });
      return { reply };
    }
    case 'mongo':
      await mongoProbe(urlWithCredentials({ ...connection, url: required(connection.url, 'URL') }));
      return {};
    case 'http':
    case 'elasticsearch':
    case 'prometheus': {
      const base = required(connection.url, 'URL');
      const url = type === 'prometheus' ? new URL('api/v1/status/buildinfo', base.endsWith('/') ? base : `${base}/`).toString() : base;
      const response = await httpProbe({ url, username: connection.username, password: connection.password, insecureTls: connection.insecureTls });
      if (response.status >= 400) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 500)}`);
      return { status: response.status };
    }
    case 'sftp': {
      const { host, port } = hostAndPort(required(connection.url, 'Host'), Number(connection.properties.port ?? '22'));
      const entries = await sftpProbe({ host, port, username: connection.username, password: connection.password, privateKey: connection.certificate });
      return { entries };
    }
    case 'email': {
      // Without a sender there is nothing to send from, so the test stops at greeting and authenticating.
      if ((connection.properties.from ?? '') !== '') return testNotification(connection, type);
      const { host, port } = hostAndPort(required(connection.url, 'Host'), Number(connection.properties.port ?? '587'));
      await smtpProbe({
        host,
        port,
        encryptionMethod: connection.properties.encryptionMethod ?? 'Auto',
        authMethod: connection.properties.authMethod ?? 'Unknown',
        username: connection.username,
        password: connection.password,
        insecureTls: connection.insecureTls,
      });
      return {};
    }
    case 'git': {
      const head = await gitProbe({
        url: required(connection.url, 'URL'),
        ref: connection.properties.ref ?? 'main',
        username: connection.username,
        password: connection.password,
        sshKey: connection.certificate,
      });
      return { commit: head };
    }
    case 'folder': {
      const folder = required(connection.url ?? connection.properties.path ?? null, 'Path');
      const info = await stat(folder).catch(() => null);
      if (info === null) throw new Error(`${folder} does not exist`);
      if (!info.isDirectory()) throw new Error(`${folder} is not a directory`);
      return {};
    }
    default:
      return NOTIFICATION_CONNECTION_TYPES.has(type) ? testNotification(connection, type) : null;
  }
}
