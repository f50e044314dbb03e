import { describe, expect, it } from 'vitest';
import { durationText, jsonValues, stopMessage, timeoutMessage } from './action-outcome';

describe('action outcomes', () => {
  it('writes durations the way specs write them', () => {
    expect(durationText(5000)).toBe('5s');
    expect(durationText(90_000)).toBe('1m30s');
    expect(durationText(300_000)).toBe('5m');
    expect(durationText(3_600_000)).toBe('1h');
    expect(durationText(3_723_000)).toBe('1h2m3s');
    expect(durationText(750)).toBe('750ms');
  });

  it('says an action timed out when its signal aborts with a TimeoutError', () => {
    const controller = new AbortController();
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect(stopMessage(controller.signal, 5000, performance.now())).toBe('timed out after 5s');
  });

  it('says an action was cancelled when its signal aborts early without a timeout reason', () => {
    const controller = new AbortController();
    controller.abort();
    expect(stopMessage(controller.signal, 5000, performance.now())).toBe('cancelled');
  });

  it('counts an abort without a reason at the end of the timeout as the timeout', () => {
    const controller = new AbortController();
    controller.abort();
    expect(stopMessage(controller.signal, 5000, performance.now() - 4900)).toBe(timeoutMessage(5000));
  });

  it('turns rows into plain JSON with big integers and dates as text', () => {
    expect(jsonValues({ n: 10n, at: new Date('2026-01-02T03:04:05.000Z'), gone: undefined })).toEqual({ n: '10', at: '2026-01-02T03:04:05.000Z' });
  });
});
