import type { AddressInfo } from 'node:net';
import type { InboxMessage } from './demo-inbox-store';
import { DEMO_INBOX_MAX_BYTES } from './demo-inbox-store';

export interface DemoSmtp {
  port: number;
  close(): Promise<void>;
}

function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || !('value' in entry) || !Array.isArray(entry.value)) return [];
    return entry.value.flatMap((one: unknown) =>
      typeof one === 'object' && one !== null && 'address' in one && typeof one.address === 'string' ? [one.address] : [],
    );
  });
}

/**
 * A mail server on loopback for the demo's mail connection: every mail it is given lands in the demo inbox. It takes
 * no login and offers no TLS, and it answers this machine only; a mail over DEMO_INBOX_MAX_BYTES is refused.
 */
export async function startDemoSmtp(receive: (message: InboxMessage) => Promise<void>, onError: (error: Error) => void): Promise<DemoSmtp> {
  // Loaded only by a demo install: the other servers never start it.
  const [{ SMTPServer }, { simpleParser }] = await Promise.all([import('smtp-server'), import('mailparser')]);
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: DEMO_INBOX_MAX_BYTES,
    banner: 'Opsdeck demo inbox',
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (stream.sizeExceeded) throw Object.assign(new Error('The mail is larger than the demo inbox takes'), { responseCode: 552 });
          const envelopeTo = session.envelope.rcptTo.map((recipient) => recipient.address);
          const to = envelopeTo.length > 0 ? envelopeTo : addresses(mail.to);
          const from = session.envelope.mailFrom === false ? addresses(mail.from)[0] : session.envelope.mailFrom.address;
          await receive({
            kind: 'email',
            channel: to[0] ?? 'unknown',
            sender: from ?? null,
            recipients: to,
            subject: mail.subject ?? null,
            contentType: 'text/plain',
            body: mail.text ?? '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on('error', onError);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
