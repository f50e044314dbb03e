import { createHash } from 'node:crypto';
import type { DeliveryOptions, DeliveryReceipt, NotificationMessage, ResolvedConnection } from '../connections';
import { REQUEST_TIMEOUT_MS, requireValue } from './http';
import { escapeHtml, markdownToHtml, markdownToText } from './render';
import { mailLibrary } from '../../platform/client-libraries';

/** nodemailer's names for the connection's auth methods; Unknown and OAuth2 let nodemailer pick from what the server offers. */
const AUTH_METHODS: Readonly<Record<string, string>> = { Plain: 'PLAIN', CRAMMD5: 'CRAM-MD5' };

/** The connection's url is `host`, `host:port` or `smtp(s)://host:port`; properties.port applies when the url names none. */
function smtpTarget(connection: ResolvedConnection): { host: string; port: number; implicitTls: boolean } {
  const raw = requireValue(connection.url, 'The host');
  const implicitTls = /^smtps:\/\//i.test(raw);
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, ''));
  if (match === null) throw new Error(`Invalid host '${raw}'`);
  const port = Number(match[2] ?? connection.properties.port ?? (implicitTls ? '465' : '587'));
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port, implicitTls };
}

/** The same key always yields the same Message-ID, so a mail server or client that dedupes by it drops a retry. */
function messageIdFor(idempotencyKey: string, from: string): string {
  const domain = from.includes('@') ? from.slice(from.lastIndexOf('@') + 1) : 'opsdeck.local';
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}@${domain}>`;
}

function htmlDocument(title: string, bodyHtml: string): string {
  return `<!doctype html><html><body><h2>${escapeHtml(title)}</h2>${bodyHtml}</body></html>`;
}

/** One mail to message.to, with an HTML part rendered from the Markdown body and a plain-text part. */
export async function deliverEmail(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const from = requireValue(connection.properties.from, 'The From address');
  if (message.to.length === 0) throw new Error('The message has no recipients');
  const { host, port, implicitTls } = smtpTarget(connection);
  const encryption = connection.properties.encryptionMethod ?? 'Auto';
  const authMethod = connection.properties.authMethod ?? 'Unknown';
  const withAuth = authMethod !== 'None' && (connection.username ?? '') !== '';
  const mappedAuth = AUTH_METHODS[authMethod];
  const transport = (await mailLibrary()).createTransport({
    host,
    port,
    secure: implicitTls || encryption === 'ImplicitTLS' || (encryption === 'Auto' && port === 465),
    requireTLS: encryption === 'ExplicitTLS',
    ignoreTLS: encryption === 'None',
    connectionTimeout: REQUEST_TIMEOUT_MS,
    greetingTimeout: REQUEST_TIMEOUT_MS,
    socketTimeout: REQUEST_TIMEOUT_MS,
    tls: { rejectUnauthorized: !connection.insecureTls },
    ...(withAuth ? { auth: { user: connection.username ?? '', pass: connection.password ?? '' } } : {}),
    ...(withAuth && mappedAuth !== undefined ? { authMethod: mappedAuth } : {}),
  });
  const link = message.url;
  const fromName = connection.properties.fromName ?? '';
  // nodemailer takes no signal: closing the transport ends the SMTP session, and a deadline bounds the whole send.
  let stop = (): void => undefined;
  const stopped = new Promise<never>((_, reject) => {
    const onAbort = (): void => {
      transport.close();
      reject(new Error('the delivery was aborted'));
    };
    const timer = setTimeout(() => {
      transport.close();
      reject(new Error(`the delivery timed out after ${REQUEST_TIMEOUT_MS / 1000} s`));
    }, REQUEST_TIMEOUT_MS);
    options.signal.addEventListener('abort', onAbort, { once: true });
    stop = () => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };
  });
  stopped.catch(() => undefined);
  try {
    if (options.signal.aborted) throw new Error('the delivery was aborted');
    const text = markdownToText(message.body);
    const info = await Promise.race([
      transport.sendMail({
        from: fromName === '' ? from : { name: fromName, address: from },
        to: [...message.to],
        subject: message.title,
        messageId: messageIdFor(message.idempotencyKey, from),
        text: link === null ? text : `${text}\n\n${link}`,
        html: htmlDocument(message.title, `${markdownToHtml(message.body)}${link === null ? '' : `<p><a href="${escapeHtml(link)}">Open in Opsdeck</a></p>`}`),
      }),
      stopped,
    ]);
    return { providerMessageId: info.messageId };
  } finally {
    stop();
    transport.close();
  }
}
