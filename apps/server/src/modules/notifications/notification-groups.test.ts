import { describe, expect, it } from 'vitest';
import { DEFAULT_GROUP_BY_INTERVAL_MS, groupByProblem, groupHash, groupingOf, tokenized } from './notification-groups';

describe('notification groups (groupBy)', () => {
  it('puts resources with the same values of the keys in one group, and a resource with none of them in none', () => {
    const shopApi = groupHash(['label:app'], 'config', { name: 'api', labels: { app: 'shop' } });
    expect(shopApi).toMatch(/^[0-9a-f]{64}$/);
    expect(groupHash(['label:app'], 'config', { name: 'db', labels: { app: 'shop' } })).toBe(shopApi);
    expect(groupHash(['label:app'], 'config', { name: 'ledger', labels: { app: 'billing' } })).not.toBe(shopApi);
    expect(groupHash(['label:app'], 'config', { name: 'loose', labels: {} })).toBeNull();
    expect(groupHash(['tag:cluster'], 'check', { tags: { cluster: 'a' } })).toBeNull();
  });

  it('compares descriptions with their ids, times, durations and the resource name taken out, as Mission Control does', () => {
    const crash = (name: string, pod: string) => groupHash(['description'], 'config', { name, description: `${name} restarted after 42s in pod ${pod}` });
    expect(crash('web', '3f6c1d2e-1b2a-4c3d-9e8f-0a1b2c3d4e5f')).toBe(crash('api', '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'));
    expect(tokenized('at 2026-12-01T06:10:47Z took 3m')).toBe('at TIMESTAMP tookDURATION');
  });

  it('refuses keys Mission Control does not group by, and reads the interval with a 24 hour default', () => {
    expect(groupByProblem(['label:app', 'tag:cluster', 'type', 'status_reason'])).toBeNull();
    expect(groupByProblem(['owner'])).toBe('groupBy key "owner" is not one of type, description, status_reason, label:<key> or tag:<key>');
    expect(groupByProblem([])).toEqual(expect.any(String));
    expect(groupingOf({ groupBy: ['type'] })).toEqual({ keys: ['type'], intervalMs: DEFAULT_GROUP_BY_INTERVAL_MS });
    expect(groupingOf({ groupBy: ['type'], groupByInterval: '1h' })).toEqual({ keys: ['type'], intervalMs: 3_600_000 });
  });
});
