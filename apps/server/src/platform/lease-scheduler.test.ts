import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaseLoop, type Lease, type LeaseStore } from './lease-scheduler';

afterEach(() => {
  vi.useRealTimers();
});

interface Row {
  id: string;
}

/** A store over ids handed out in order, remembering every call. */
function fakeStore(ids: string[], renew: LeaseStore<Row, string>['renew'] = () => Promise.resolve(null)) {
  const due = [...ids];
  const limits: number[] = [];
  const released: Array<[string, string | null]> = [];
  const store: LeaseStore<Row, string> = {
    claim: (limit, owner) => {
      limits.push(limit);
      expect(owner).toContain(`:${process.pid}:`);
      return Promise.resolve(due.splice(0, limit).map((id) => ({ id })));
    },
    renew,
    release: (row, outcome) => {
      released.push([row.id, outcome]);
      return Promise.resolve();
    },
  };
  return { store, limits, released };
}

/** A run that lasts until its signal is aborted, and records the reason's message as its outcome. */
function untilAborted(started: string[]): (row: Row, lease: Lease) => Promise<string> {
  return (row, { signal }) =>
    new Promise((resolve) => {
      started.push(row.id);
      signal.addEventListener('abort', () => resolve(`${row.id}: ${String((signal.reason as Error).message)}`), { once: true });
    });
}

describe('LeaseLoop', () => {
  it('claims only the room its runs under way leave', async () => {
    const { store, limits, released } = fakeStore(['a', 'b', 'c']);
    const started: string[] = [];
    const hold = untilAborted(started);
    const loop = new LeaseLoop({
      store,
      run: (row, lease) => (row.id === 'c' ? Promise.resolve('ran c') : hold(row, lease)),
      maxInFlight: 2,
      renewEveryMs: 60_000,
    });
    const first = loop.runDue();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
    expect(await loop.runDue()).toEqual(new Map());
    loop.abort('a', new Error('done'));
    await vi.waitFor(() => expect(released).toHaveLength(1));
    expect(await loop.runDue()).toEqual(new Map([['c', 'ran c']]));
    loop.abort('b', new Error('done'));
    expect(await first).toEqual(
      new Map([
        ['a', 'a: done'],
        ['b', 'b: done'],
      ]),
    );
    expect(limits).toEqual([2, 1]);
  });

  it('aborts one run alone through abort(), and releases it with its outcome before onRun', async () => {
    const { store, released } = fakeStore(['a', 'b']);
    const started: string[] = [];
    const events: string[] = [];
    const loop = new LeaseLoop({ store, run: untilAborted(started), maxInFlight: 2, renewEveryMs: 60_000, onRun: (id) => events.push(`onRun ${id}`) });
    const running = loop.runDue();
    await vi.waitFor(() => expect(started).toHaveLength(2));
    loop.abort('a', new Error('cancelled'));
    loop.abort('missing', new Error('nobody holds it'));
    await vi.waitFor(() => expect(released).toEqual([['a', 'a: cancelled']]));
    expect(events).toEqual(['onRun a']);
    loop.abort('b', new Error('cancelled'));
    expect((await running).get('b')).toBe('b: cancelled');
  });

  it('renews every renewEveryMs and aborts the run with the reason a renewal gives', async () => {
    vi.useFakeTimers();
    const renewals: string[] = [];
    const { store } = fakeStore(['a'], (row) => {
      renewals.push(row.id);
      return Promise.resolve(renewals.length < 3 ? null : new Error('another worker took it'));
    });
    const loop = new LeaseLoop({ store, run: untilAborted([]), maxInFlight: 1, renewEveryMs: 1000 });
    const running = loop.runDue();
    await vi.advanceTimersByTimeAsync(2999);
    expect(renewals).toEqual(['a', 'a']);
    await vi.advanceTimersByTimeAsync(1);
    expect((await running).get('a')).toBe('a: another worker took it');
    await vi.advanceTimersByTimeAsync(5000);
    expect(renewals).toHaveLength(3);
  });

  it('stops with the reason given, waiting until the runs under way are released', async () => {
    const { store, released } = fakeStore(['a']);
    const started: string[] = [];
    const loop = new LeaseLoop({ store, run: untilAborted(started), maxInFlight: 1, renewEveryMs: 60_000, pollMs: 60_000 });
    loop.start();
    await vi.waitFor(() => expect(started).toEqual(['a']));
    await loop.stop(new Error('stopping now'));
    expect(released).toEqual([['a', 'a: stopping now']]);
  });

  it('reports a run that throws, releases it with no outcome and leaves it out of runDue', async () => {
    const { store, released } = fakeStore(['a']);
    const errors: unknown[] = [];
    const onRun = vi.fn();
    const loop = new LeaseLoop({
      store,
      run: () => Promise.reject(new Error('broken')),
      maxInFlight: 1,
      renewEveryMs: 60_000,
      onError: (error) => errors.push(error),
      onRun,
    });
    expect(await loop.runDue()).toEqual(new Map());
    expect(errors).toEqual([new Error('broken')]);
    expect(released).toEqual([['a', null]]);
    expect(onRun).not.toHaveBeenCalled();
  });

  it('runs without a release step when the store has none', async () => {
    const { store } = fakeStore(['a']);
    const { release: _release, ...withoutRelease } = store;
    const loop = new LeaseLoop({ store: withoutRelease, run: (row) => Promise.resolve(`ran ${row.id}`), maxInFlight: 1, renewEveryMs: 60_000 });
    expect(await loop.runDue()).toEqual(new Map([['a', 'ran a']]));
  });
});
