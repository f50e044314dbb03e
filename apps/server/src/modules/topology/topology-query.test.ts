import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { parseTopologyQuery } from './topology-query';

const AGENT = '7f0c2a52-5d7e-4b7a-9a51-0d4b8f3c2e11';

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('parseTopologyQuery', () => {
  it('treats absent, empty and All values as no filter', () => {
    const none = { id: null, type: null, team: null, labels: null, statuses: null, agent: null };
    expect(parseTopologyQuery({})).toEqual(none);
    expect(parseTopologyQuery({ id: 'All', type: 'All', team: 'All', labels: 'All', status: 'All', agent_id: 'All' })).toEqual(none);
    expect(parseTopologyQuery({ type: '', team: ' ', labels: '', status: '' })).toEqual(none);
  });

  it('reads labels as key=value pairs joined by commas, values keeping their own equals signs', () => {
    expect(parseTopologyQuery({ labels: 'env=prod, tier=web,query=a=b' }).labels).toEqual({ env: 'prod', tier: 'web', query: 'a=b' });
  });

  it('reads one status or several, without repeats', () => {
    expect(parseTopologyQuery({ status: 'unhealthy' }).statuses).toEqual(['unhealthy']);
    expect(parseTopologyQuery({ status: 'warning,unhealthy,warning' }).statuses).toEqual(['warning', 'unhealthy']);
  });

  it('reads agent_id as an agent or local', () => {
    expect(parseTopologyQuery({ agent_id: 'local' }).agent).toEqual({ local: true });
    expect(parseTopologyQuery({ agent_id: AGENT }).agent).toEqual({ local: false, id: AGENT });
  });

  it('refuses values that cannot mean anything, naming the field', () => {
    expect(failure(() => parseTopologyQuery({ id: '42' })).details).toContain('/id');
    expect(failure(() => parseTopologyQuery({ status: 'healthy,sick' })).details).toContain("/status 'sick'");
    expect(failure(() => parseTopologyQuery({ agent_id: 'remote' })).details).toContain('/agent_id');
    expect(failure(() => parseTopologyQuery({ labels: '=prod' })).statusCode).toBe(400);
  });
});
