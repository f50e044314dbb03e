import { describe, expect, it } from 'vitest';
import { describeEvent, loggerOptions } from './logger';

describe('describeEvent', () => {
  it('puts an incoming request on one line: message, method, URL and request id', () => {
    const log = { msg: 'incoming request', reqId: 'req-7', req: { method: 'GET', url: '/healthz', remotePort: 4242 } };
    expect(describeEvent(log, 'msg')).toBe('incoming request GET /healthz [req-7]');
  });

  it('puts a completed request on one line with its status and whole milliseconds', () => {
    const log = { msg: 'request completed', reqId: 'req-7', res: { statusCode: 404 }, responseTime: 12.6 };
    expect(describeEvent(log, 'msg')).toBe('request completed 404 13 ms [req-7]');
  });

  it('leaves any other event as its message', () => {
    expect(describeEvent({ msg: 'Seeded demo data', signal: 'SIGTERM' }, 'msg')).toBe('Seeded demo data');
  });
});

describe('loggerOptions', () => {
  it('writes JSON through pino itself and readable lines through a formatting stream', () => {
    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' })).not.toHaveProperty('stream');
    expect(loggerOptions({ logLevel: 'info', logFormat: 'pretty' }).stream).toBeDefined();
  });

  it('keeps cookies and credentials out of the log in both formats', () => {
    for (const logFormat of ['json', 'pretty'] as const) {
      expect(loggerOptions({ logLevel: 'debug', logFormat }).redact).toEqual(
        expect.objectContaining({ paths: expect.arrayContaining(['req.headers.cookie', 'req.headers.authorization']) }),
      );
    }
  });
});
