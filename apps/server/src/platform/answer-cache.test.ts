import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { normalizedKey, PoolCaches, SummaryCache, type SummaryCacheOptions } from './answer-cache';

function counted(value: string): { compute: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    compute: async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `${value}#${calls}`;
    },
    calls: () => calls,
  };
}

describe('SummaryCache', () => {
  it('runs one computation for identical requests that miss at the same time', async () => {
    const cache = new SummaryCache<string>({ maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: () => 0 });
    const source = counted('rows');
    const answers = await Promise.all([1, 2, 3].map(() => cache.get('a', 'v1', source.compute)));
    expect(answers.map((answer) => answer.value)).toEqual(['rows#1', 'rows#1', 'rows#1']);
    expect(source.calls()).toBe(1);
  });

  it('computes again once the write version has moved', async () => {
    const cache = new SummaryCache<string>({ maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: () => 0 });
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute);
    expect((await cache.get('a', 'v1', source.compute)).value).toBe('rows#1');
    expect((await cache.get('a', 'v2', source.compute)).value).toBe('rows#2');
  });

  it('computes again once an answer is older than the age limit, even with no write', async () => {
    let clock = 0;
    const cache = new SummaryCache<string>({ maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: () => clock });
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute);
    clock = 59_999;
    expect((await cache.get('a', 'v1', source.compute)).value).toBe('rows#1');
    clock = 60_000;
    expect((await cache.get('a', 'v1', source.compute)).value).toBe('rows#2');
  });

  it('keeps at most the configured number of answers, dropping the least recently used', async () => {
    const cache = new SummaryCache<string>({ maxEntries: 2, maxAgeMs: 60_000, staleMs: 300_000, now: () => 0 });
    const a = counted('a');
    const b = counted('b');
    const c = counted('c');
    await cache.get('a', 'v1', a.compute);
    await cache.get('b', 'v1', b.compute);
    await cache.get('a', 'v1', a.compute);
    await cache.get('c', 'v1', c.compute);
    expect(cache.size).toBe(2);
    expect((await cache.get('a', 'v1', a.compute)).value).toBe('a#1');
    expect((await cache.get('b', 'v1', b.compute)).value).toBe('b#2');
  });

  it('keeps no answer when the computation fails, so the next request tries again', async () => {
    const cache = new SummaryCache<string>({ maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: () => 0 });
    await expect(cache.get('a', 'v1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await cache.get('a', 'v1', () => Promise.resolve('rows'))).value).toBe('rows');
  });
});

describe('SummaryCache with stale answers allowed', () => {
  const options = (clock: () => number): SummaryCacheOptions => ({ maxEntries: 50, maxAgeMs: 60_000, staleMs: 300_000, now: clock });

  it('serves the kept answer at once after a write and has the new one ready for the next reader', async () => {
    const cache = new SummaryCache<string>(options(() => 0));
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute, true);
    expect((await cache.get('a', 'v2', source.compute, true)).value).toBe('rows#1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await cache.get('a', 'v2', source.compute, true)).value).toBe('rows#2');
    expect(source.calls()).toBe(2);
  });

  it('says when the served answer was computed', async () => {
    let clock = 1_000;
    const cache = new SummaryCache<string>(options(() => clock));
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute, true);
    clock = 100_000;
    expect(await cache.get('a', 'v1', source.compute, true)).toEqual({ value: 'rows#1', computedAt: 1_000 });
  });

  it('waits for a new answer once the kept one is older than the stale limit, or when stale answers are not allowed', async () => {
    let clock = 0;
    const cache = new SummaryCache<string>(options(() => clock));
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute, true);
    expect((await cache.get('a', 'v2', source.compute, false)).value).toBe('rows#2');
    clock = 300_000;
    expect((await cache.get('a', 'v3', source.compute, true)).value).toBe('rows#3');
  });

  it('runs one refresh at a time behind a kept answer however many writes come meanwhile', async () => {
    const cache = new SummaryCache<string>(options(() => 0));
    const source = counted('rows');
    await cache.get('a', 'v1', source.compute, true);
    const served = await Promise.all(['v2', 'v3', 'v4', 'v5'].map((version) => cache.get('a', version, source.compute, true)));
    expect(served.map((answer) => answer.value)).toEqual(['rows#1', 'rows#1', 'rows#1', 'rows#1']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.calls()).toBe(2);
    expect((await cache.get('a', 'v2', source.compute, true)).value).toBe('rows#2');
  });

  it('keeps serving the kept answer when the refresh behind it fails', async () => {
    const cache = new SummaryCache<string>(options(() => 0));
    await cache.get('a', 'v1', () => Promise.resolve('rows'), true);
    expect((await cache.get('a', 'v2', () => Promise.reject(new Error('boom')), true)).value).toBe('rows');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await cache.get('a', 'v2', () => Promise.resolve('again'), true)).value).toBe('rows');
  });
});

describe('normalizedKey', () => {
  it('gives bodies that differ only in key order one key, and different filters different keys', () => {
    const one = normalizedKey({ groupBy: ['type'], filter: { tags: { a: '1', b: '2' }, configType: 'Pod' } });
    const two = normalizedKey({ filter: { configType: 'Pod', tags: { b: '2', a: '1' } }, groupBy: ['type'] });
    expect(one).toBe(two);
    expect(normalizedKey({ filter: { configType: 'Node' }, groupBy: ['type'] })).not.toBe(normalizedKey({ filter: { configType: 'Pod' }, groupBy: ['type'] }));
    expect(normalizedKey({ groupBy: ['type', 'status'] })).not.toBe(normalizedKey({ groupBy: ['status', 'type'] }));
  });
});

describe('PoolCaches', () => {
  it('gives each database its own cache, the same one every time it is asked', () => {
    const caches = new PoolCaches<string>();
    const one = {} as pg.Pool;
    const other = {} as pg.Pool;
    expect(caches.for(one)).toBe(caches.for(one));
    expect(caches.for(one)).not.toBe(caches.for(other));
  });
});
