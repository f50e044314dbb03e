import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findChecks, findConfigs, parseLabelSelector } from './topology-store';

/** Records what each source query was sent, answering with no rows. */
function recorder(): { db: pg.PoolClient; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const query = (_sql: string, values: unknown[]): Promise<{ rows: never[] }> => {
    calls.push(values);
    return Promise.resolve({ rows: [] });
  };
  return { calls, db: { query } as unknown as pg.PoolClient };
}

describe('topology sources', () => {
  it('reads a label selector as key=value pairs, a bare key asking only that it exists', () => {
    expect(parseLabelSelector('app=checkout, tier = api,critical,')).toEqual({ equal: { app: 'checkout', tier: 'api' }, exists: ['critical'] });
    expect(parseLabelSelector('')).toEqual({ equal: {}, exists: [] });
  });

  it('matches nothing, without a query, for a selector that names nothing or only ids that are not ids', async () => {
    const { db, calls } = recorder();
    expect(await findConfigs(db, {})).toEqual([]);
    expect(await findConfigs(db, { id: ['not-a-uuid'] })).toEqual([]);
    expect(await findConfigs(db, { namespace: 'shop', tags: { namespace: 'payments' } })).toEqual([]);
    expect(await findChecks(db, { labelSelector: ' , ' })).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('sends every selector field as a bound value, the namespace as a tag, and caps the rows', async () => {
    const { db, calls } = recorder();
    await findConfigs(db, { name: 'checkout', namespace: 'shop', types: ['Kubernetes::Pod'], tags: { cluster: 'prod' }, labels: { app: 'x' } });
    expect(calls[0]).toEqual([null, 'checkout', ['Kubernetes::Pod'], JSON.stringify({ cluster: 'prod', namespace: 'shop' }), JSON.stringify({ app: 'x' }), 5000]);
    await findChecks(db, { labelSelector: 'suite=a,critical', types: ['http'] });
    expect(calls[1]).toEqual([null, null, JSON.stringify({ suite: 'a' }), ['critical'], ['http'], 5000]);
  });
});
