import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaseOwner, PollLoop } from './poll-loop';

afterEach(() => {
  vi.useRealTimers();
});

/** A pass that stays under way until the test calls `finish`, which ends the latest one. */
function heldPass() {
  let release: () => void = () => undefined;
  const pass = vi.fn(
    () =>
      new Promise<void>((resolve) => {
        release = resolve;
      }),
  );
  return { pass, finish: () => release() };
}

describe('leaseOwner', () => {
  it('names the host and process and differs between two schedulers of one process', () => {
    const first = leaseOwner();
    expect(first).toContain(`:${process.pid}:`);
    expect(leaseOwner()).not.toBe(first);
  });
});

describe('PollLoop', () => {
  it('polls at once on start and then pollMs after each pass ends', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(() => Promise.resolve());
    const loop = new PollLoop({ pass, pollMs: 1000 });
    loop.start();
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(2);
    await loop.stop();
  });

  it('polls at once on wake, but not while a pass is under way nor before start', async () => {
    vi.useFakeTimers();
    const { pass, finish } = heldPass();
    const loop = new PollLoop({ pass, pollMs: 60_000 });
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).not.toHaveBeenCalled();
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(2);
    finish();
    await loop.stop();
  });

  it('with passAgainOnWake polls again right after a pass that was woken, then waits pollMs again', async () => {
    vi.useFakeTimers();
    const { pass, finish } = heldPass();
    const loop = new PollLoop({ pass, pollMs: 60_000, passAgainOnWake: true });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    loop.wake();
    loop.wake();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(2);
    finish();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(pass).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(3);
    finish();
    await loop.stop();
  });

  it('aborts its signal with the reason given to stop and waits for tracked work before resolving', async () => {
    const loop = new PollLoop({ pass: () => Promise.resolve(), pollMs: 1000 });
    const events: string[] = [];
    loop.track(
      new Promise<void>((resolve) => {
        loop.signal.addEventListener('abort', () => {
          events.push(`aborted: ${String(loop.signal.reason)}`);
          setTimeout(() => {
            events.push('work recorded');
            resolve();
          }, 5);
        });
      }),
    );
    await loop.stop('stopping');
    events.push('stopped');
    expect(events).toEqual(['aborted: stopping', 'work recorded', 'stopped']);
  });

  it('reports a pass that throws and keeps polling', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const pass = vi.fn(() => Promise.reject(new Error('database away')));
    const loop = new PollLoop({ pass, pollMs: 1000, onError: (error) => errors.push(error) });
    loop.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(2);
    expect(errors).toEqual([new Error('database away'), new Error('database away')]);
    await loop.stop();
  });

  it('does not poll again once stopped', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(() => Promise.resolve());
    const loop = new PollLoop({ pass, pollMs: 1000 });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await loop.stop();
    loop.wake();
    await vi.advanceTimersByTimeAsync(5000);
    expect(pass).toHaveBeenCalledTimes(1);
  });
});
