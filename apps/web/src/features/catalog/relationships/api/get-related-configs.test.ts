import { describe, expect, it } from 'vitest';
import { dedupeRelated, relatedConfigsUrl } from './get-related-configs';
import type { RelatedConfigRow } from './types';

function row(overrides: Partial<RelatedConfigRow>): RelatedConfigRow {
  return { id: 'a', name: 'a', type: 'T', config_class: 'T', status: null, health: null, deleted_at: null, related_ids: ['root'], direction: 'outgoing', depth: 1, relation: 'calls', ...overrides };
}

describe('related configs', () => {
  it('keeps an item reached both ways once, at its nearest depth, with both directions and every item leading to it', () => {
    const merged = dedupeRelated([
      row({ depth: 2, related_ids: ['b'], relation: 'x' }),
      row({ direction: 'incoming', depth: 1, related_ids: ['root'], relation: 'y' }),
      row({ id: 'c', name: 'c' }),
    ]);
    expect(merged.map((item) => item.id)).toEqual(['a', 'c']);
    expect(merged[0]).toMatchObject({ depth: 1, relation: 'y', related_ids: ['root', 'b'], directions: ['outgoing', 'incoming'] });
    expect(merged[0]).not.toHaveProperty('direction');
    expect(merged[1]).toMatchObject({ depth: 1, directions: ['outgoing'] });
  });

  it('asks with GET, arrays as quoted PostgreSQL literals', () => {
    const url = new URL(relatedConfigsUrl({ config_id: 'c1', type_filter: 'all', include_deleted_configs: false, max_depth: 10, incoming_relation: 'hard', outgoing_relation: 'both', type: ['AWS::EC2::Instance', 'a"b'] }), 'http://x');
    expect(url.pathname).toBe('/api/db/rpc/related_configs_recursive');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ config_id: 'c1', type_filter: 'all', include_deleted_configs: 'false', max_depth: '10', type: '{"AWS::EC2::Instance","a\\"b"}' });
  });
});
