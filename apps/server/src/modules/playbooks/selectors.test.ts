import { describe, expect, it } from 'vitest';
import type { PlaybookSpec } from '@opsdeck/shared';
import { loadTarget, parseSelectorRequirements, selectorMatches, targetMatches } from './selectors';
import type { PlaybookTarget } from './types';

const pod: PlaybookTarget = {
  type: 'config',
  id: '00000000-0000-4000-8000-000000000001',
  name: 'web-7f9c',
  kind: 'Kubernetes::Pod',
  namespace: 'shop',
  tags: { cluster: 'prod', namespace: 'shop' },
  labels: { app: 'web', tier: 'front' },
  status: 'Running',
  health: 'healthy',
  row: {},
};

const check: PlaybookTarget = { ...pod, type: 'check', id: '00000000-0000-4000-8000-000000000002', name: 'shop-home', kind: 'http', tags: {}, status: 'unhealthy', health: 'unhealthy' };

const actions = [{ name: 'a', exec: { script: 'true' } }];

describe('selector requirements', () => {
  it('parses equality, inequality, existence and set requirements', () => {
    expect(parseSelectorRequirements('app=web, env!=dev,tier,!canary,zone in (a, b),size notin (xl)')).toEqual([
      { key: 'app', op: 'equals', value: 'web' },
      { key: 'env', op: 'differs', value: 'dev' },
      { key: 'tier', op: 'exists' },
      { key: 'canary', op: 'absent' },
      { key: 'zone', op: 'in', values: ['a', 'b'] },
      { key: 'size', op: 'notin', values: ['xl'] },
    ]);
    expect(parseSelectorRequirements('app.kubernetes.io/name==web')).toEqual([{ key: 'app.kubernetes.io/name', op: 'equals', value: 'web' }]);
  });

  it('answers a problem for text that is not a selector', () => {
    expect(typeof parseSelectorRequirements('a=b,,c')).toBe('string');
    expect(typeof parseSelectorRequirements('zone in (a,)')).toBe('string');
    expect(typeof parseSelectorRequirements('=b')).toBe('string');
  });
});

describe('matching selectors', () => {
  it('matches when every field given matches', () => {
    expect(selectorMatches({ types: ['Kubernetes::Pod'], tagSelector: 'cluster=prod', labelSelector: 'app=web' }, pod)).toBe(true);
    expect(selectorMatches({ types: ['Kubernetes::Pod'], tagSelector: 'cluster=dev' }, pod)).toBe(false);
    expect(selectorMatches({ namespace: 'shop', healths: ['healthy'] }, pod)).toBe(true);
    expect(selectorMatches({ namespace: 'other' }, pod)).toBe(false);
    expect(selectorMatches({ id: pod.id }, pod)).toBe(true);
  });

  it('matches names and types by glob, and excludes with !', () => {
    expect(selectorMatches({ name: 'web-*' }, pod)).toBe(true);
    expect(selectorMatches({ name: 'web' }, pod)).toBe(false);
    expect(selectorMatches({ types: ['Kubernetes::*'] }, pod)).toBe(true);
    expect(selectorMatches({ types: ['!Kubernetes::Pod'] }, pod)).toBe(false);
    expect(selectorMatches({ types: ['!Kubernetes::Node'] }, pod)).toBe(true);
  });

  it('compares statuses and healths without regard to case', () => {
    expect(selectorMatches({ statuses: ['running'] }, pod)).toBe(true);
    expect(selectorMatches({ healths: ['!HEALTHY'] }, pod)).toBe(false);
  });

  it('treats != and notin as holding when the key is missing, as Kubernetes does', () => {
    expect(selectorMatches({ labelSelector: 'env!=dev' }, pod)).toBe(true);
    expect(selectorMatches({ labelSelector: 'env notin (dev)' }, pod)).toBe(true);
    expect(selectorMatches({ labelSelector: 'env in (dev)' }, pod)).toBe(false);
    expect(selectorMatches({ labelSelector: '!app' }, pod)).toBe(false);
  });

  it('matches maps of tags and labels by containment', () => {
    expect(selectorMatches({ tags: { cluster: 'prod' }, labels: { app: 'web' } }, pod)).toBe(true);
    expect(selectorMatches({ labels: { app: 'api' } }, pod)).toBe(false);
  });

  it('matches nothing with a selector that gives no field', () => {
    expect(selectorMatches({}, pod)).toBe(false);
  });
});

describe('whether a playbook is offered on a target', () => {
  it('offers it when any selector of the target kind matches', () => {
    const spec: PlaybookSpec = { configs: [{ types: ['Kubernetes::Node'] }, { name: 'web-*' }], actions };
    expect(targetMatches(spec, pod)).toBe(true);
    expect(targetMatches(spec, check)).toBe(false);
  });

  it('offers it on checks through checks selectors only', () => {
    expect(targetMatches({ checks: [{ types: ['http'] }], actions }, check)).toBe(true);
    expect(targetMatches({ checks: [{ types: ['http'] }], actions }, pod)).toBe(false);
  });

  it('offers a spec without selectors nowhere', () => {
    expect(targetMatches({ actions }, pod)).toBe(false);
  });
});

describe('loading targets', () => {
  it('answers null without a query for an id that is not a uuid', async () => {
    const client = {
      query: () => {
        throw new Error('no query expected');
      },
    };
    expect(await loadTarget(client, 'config', 'not-a-uuid')).toBeNull();
  });
});
