import { readFileSync } from 'node:fs';

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

function mailboxPath(): string {
  const file = process.env.E2E_MAILBOX;
  if (file === undefined || file === '') throw new Error('E2E_MAILBOX is not set: run the specs through scripts/e2e.mjs');
  return file;
}

function readMailbox(): CapturedMail[] {
  return readFileSync(mailboxPath(), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CapturedMail);
}

/** How many mails the run has captured so far: pass it to `waitForMail` to only see mail sent after this point. */
export function mailCount(): number {
  return readMailbox().length;
}

/** The first mail to `to` captured after the first `since` mails of the run (the server's identity mail). */
export async function waitForMail(to: string, since = 0, timeoutMs = 15_000): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMailbox()
      .slice(since)
      .find((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()));
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} arrived within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first run of six digits in a mail: the one-time code of a recovery or verification message. */
export function codeIn(mail: CapturedMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (code === undefined) throw new Error(`no code in the mail '${mail.subject}'`);
  return code;
}
