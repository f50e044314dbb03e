import type { ResolvedConnection } from '../connections';
import { mailLibrary } from '../../platform/client-libraries';

export interface EmailMessage {
  to: string;
  subject: string;
  body: string;
}

/** Bounded so that an unreachable mail server fails the event well inside the event queue's lease. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

function hostAndPort(connection: ResolvedConnection): { host: string; port: number; implicitTls: boolean } {
  let host = connection.properties.host ?? '';
  let port = Number(connection.properties.port ?? '');
  let implicitTls = false;
  if (connection.url !== null && connection.url !== '') {
    const url = new URL(connection.url.includes('://') ? connection.url : `smtp://${connection.url}`);
    if (host === '') host = url.hostname;
    if (!Number.isInteger(port) || port <= 0) port = Number(url.port);
    implicitTls = url.protocol === 'smtps:';
  }
  if (host === '') throw new Error(`Email connection ${connection.name} has no host`);
  if (!Number.isInteger(port) || port <= 0) port = implicitTls ? 465 : 587;
  return { host, port, implicitTls };
}

/**
 * Sends one email through an email (SMTP) connection: host and port from properties.host/port or the url
 * (smtp://host:port, smtps:// for implicit TLS), properties.from and fromName, properties.encryptionMethod None,
 * ExplicitTLS (STARTTLS required), ImplicitTLS or Auto (STARTTLS when offered; the default), and
 * properties.authMethod None to send without the username and password.
 */
export async function sendResponderEmail(connection: ResolvedConnection, message: EmailMessage): Promise<string> {
  const { host, port, implicitTls } = hostAndPort(connection);
  const encryption = connection.properties.encryptionMethod ?? 'Auto';
  const withAuth = connection.properties.authMethod !== 'None' && connection.username !== null && connection.username !== '';
  const transport = (await mailLibrary()).createTransport({
    host,
    port,
    secure: implicitTls || encryption === 'ImplicitTLS',
    requireTLS: encryption === 'ExplicitTLS',
    ignoreTLS: encryption === 'None',
    auth: withAuth ? { user: connection.username ?? '', pass: connection.password ?? '' } : undefined,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    tls: { rejectUnauthorized: !connection.insecureTls },
  });
  try {
    const address = connection.properties.from ?? (withAuth ? (connection.username ?? '') : `opsdeck@${host}`);
    const fromName = connection.properties.fromName;
    const info = await transport.sendMail({
      from: fromName === undefined || fromName === '' ? address : { name: fromName, address },
      to: message.to,
      subject: message.subject,
      text: message.body,
    });
    return info.messageId;
  } finally {
    transport.close();
  }
}
