import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCourier } from '../src/auth/shared/courier';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

function recordingLogger(): { log: FastifyBaseLogger; warn: ReturnType<typeof vi.fn> } {
  const warn = vi.fn();
  const noop = vi.fn();
  const log = { warn, info: noop, error: noop, debug: noop, trace: noop, fatal: noop, level: 'info', silent: noop } as unknown as FastifyBaseLogger;
  return { log, warn };
}

describe('identity courier', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('delivers identity mail through the SMTP server of OPSDECK_SMTP_URL, from the configured sender', async () => {
    const { log } = recordingLogger();
    const courier = createCourier({ smtpUrl: sink.url, smtpFrom: 'Ops <ops@example.test>' }, log);
    expect(courier.delivers).toBe(true);
    await courier.send({ kind: 'recovery', to: 'ana@example.test', subject: 'Recover your account', text: 'Your code is 123456' });
    const mail = await sink.waitFor('ana@example.test');
    expect(mail.subject).toBe('Recover your account');
    expect(mail.text).toContain('123456');
    expect(mail.from?.value[0]?.address).toBe('ops@example.test');
  });

  it('writes the whole message, code included, to the server log at warn level when no SMTP server is configured', async () => {
    const { log, warn } = recordingLogger();
    const courier = createCourier({ smtpUrl: null, smtpFrom: 'ops@example.test' }, log);
    expect(courier.delivers).toBe(false);
    await courier.send({ kind: 'verification', to: 'bo@example.test', subject: 'Verify', text: 'Your code is 654321' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls[0])).toContain('654321');
  });
});
