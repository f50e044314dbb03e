import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** smtp://127.0.0.1:{port}, ready for OPSDECK_SMTP_URL. */
  url: string;
  mails: ParsedMail[];
  /** Resolves with the first mail to `to` received after the call (or already received, when `since` is 0). */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ParsedMail>;
  close(): Promise<void>;
}

function recipients(mail: ParsedMail): string[] {
  const to = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((address) => address.value.map((entry) => (entry.address ?? '').toLowerCase()));
}

/** A loopback SMTP server that keeps every mail it receives, for tests that read what the server sent. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, options = {}) {
      const since = options.since ?? 0;
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      for (;;) {
        const found = mails.slice(since).find((mail) => recipients(mail).includes(to.toLowerCase()));
        if (found !== undefined) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
