import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { mailLibrary } from '../../platform/client-libraries';
import type { Config } from '../../platform/config';

export type IdentityMailKind = 'recovery' | 'verification' | 'invitation';

export interface IdentityMail {
  kind: IdentityMailKind;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends the identity service's own mail: recovery and verification codes, invitations. */
export interface Courier {
  send(mail: IdentityMail): Promise<void>;
  /** True when mail really leaves the server; false when it only reaches the server log. */
  readonly delivers: boolean;
}

const SEND_TIMEOUT_MS = 15_000;

/**
 * With OPSDECK_SMTP_URL the mail goes to that server; without it, the whole message (its code and link included) is
 * written to the server log at warn level, so a fresh install can still recover an account. That is the only place
 * a code is ever logged, and only because no other way to deliver it was configured.
 */
export function createCourier(config: Pick<Config, 'smtpUrl' | 'smtpFrom'>, log: FastifyBaseLogger): Courier {
  const smtpUrl = config.smtpUrl;
  if (smtpUrl === null) {
    return {
      delivers: false,
      async send(mail) {
        log.warn(
          { mail: { kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text } },
          'identity mail written to the log because OPSDECK_SMTP_URL is not set',
        );
      },
    };
  }
  let transport: Promise<Transporter> | null = null;
  return {
    delivers: true,
    async send(mail) {
      transport ??= mailLibrary().then((mailer) =>
        mailer.createTransport({
          url: smtpUrl,
          connectionTimeout: SEND_TIMEOUT_MS,
          greetingTimeout: SEND_TIMEOUT_MS,
          socketTimeout: SEND_TIMEOUT_MS,
        }),
      );
      await (await transport).sendMail({
        from: config.smtpFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
    },
  };
}
