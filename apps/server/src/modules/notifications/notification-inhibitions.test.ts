import { describe, expect, it } from 'vitest';
import { DEFAULT_INHIBITION_DEPTH, parseInhibitions } from './notification-inhibitions';

describe('parseInhibitions', () => {
  it("reads Mission Control's inhibitions, hard relations and depth 5 unless they say otherwise", () => {
    expect(parseInhibitions([{ direction: 'incoming', from: 'Kubernetes::Pod', to: ['Kubernetes::Deployment'] }])).toEqual([
      { direction: 'incoming', from: 'Kubernetes::Pod', to: ['Kubernetes::Deployment'], soft: false, depth: DEFAULT_INHIBITION_DEPTH },
    ]);
    expect(parseInhibitions([{ direction: 'outgoing', from: 'Kubernetes::Node', to: ['Kubernetes::Pod'], soft: true, depth: 1 }])).toMatchObject([{ soft: true, depth: 1 }]);
  });

  it('says which entry and field is wrong: an unknown direction or field, no target types, a depth the walk cannot reach', () => {
    const problem = (entry: Record<string, unknown>) => parseInhibitions([{ direction: 'all', from: 'A::B', to: ['C::D'], ...entry }]);
    expect(problem({ direction: 'down' })).toEqual({ problem: 'inhibitions[0].direction must be one of outgoing, incoming, all' });
    expect(problem({ hops: 2 })).toEqual({ problem: 'inhibitions[0].hops is not a field of an inhibition' });
    expect(problem({ to: [] })).toMatchObject({ problem: expect.stringContaining('inhibitions[0].to') });
    expect(problem({ depth: 11 })).toEqual({ problem: 'inhibitions[0].depth must be a whole number from 1 to 10' });
    expect(parseInhibitions([])).toMatchObject({ problem: expect.any(String) });
  });
});
