import { describe, expect, it } from 'vitest';
import { encodeTristate } from '@opsdeck/shared';
import { directionToggle, parseRelationshipParams, relatedConfigsArgs } from './relationship-params';

const parse = (query: string) => parseRelationshipParams(new URLSearchParams(query));

describe('relationship params', () => {
  it('walks outgoing hard links 10 steps deep without deleted items by default', () => {
    expect(relatedConfigsArgs('c1', parse(''))).toEqual({
      config_id: 'c1',
      type_filter: 'outgoing',
      include_deleted_configs: false,
      max_depth: 10,
      incoming_relation: 'hard',
      outgoing_relation: 'hard',
    });
  });

  it('keeps Outgoing on while Incoming is off, whatever the URL says', () => {
    expect(parse('outgoing=false')).toMatchObject({ outgoing: true, incoming: false });
    expect(relatedConfigsArgs('c1', parse('incoming=true&outgoing=false')).type_filter).toBe('incoming');
    expect(relatedConfigsArgs('c1', parse('incoming=true')).type_filter).toBe('all');
  });

  it('turns Outgoing back on when Incoming is turned off, and refuses to turn Outgoing off alone', () => {
    expect(directionToggle(parse('incoming=true&outgoing=false'), 'incoming', false)).toEqual({ incoming: null, outgoing: null });
    expect(directionToggle(parse(''), 'outgoing', false)).toBeNull();
    expect(directionToggle(parse('incoming=true'), 'outgoing', false)).toEqual({ outgoing: 'false' });
  });

  it('sends soft, depth, deleted and the included types, statuses and healths', () => {
    expect(relatedConfigsArgs('c1', parse(`soft=true&depth=3&showDeleted=true&${new URLSearchParams({ type: encodeTristate({ 'Kubernetes::Pod': 1, 'Kubernetes::Node': -1 }), health: 'unhealthy:1', status: 'Running:1' }).toString()}`))).toEqual({
      config_id: 'c1',
      type_filter: 'outgoing',
      include_deleted_configs: true,
      max_depth: 3,
      incoming_relation: 'both',
      outgoing_relation: 'both',
      type: ['Kubernetes::Pod'],
      health: ['unhealthy'],
      status: ['Running'],
    });
  });

  it('falls back to the defaults for values it does not know', () => {
    expect(parse('depth=50&view=tree&layout=diagonal&curve=wavy')).toMatchObject({ depth: 10, view: 'table', layout: 'horizontal', curve: 'bezier' });
  });
});
