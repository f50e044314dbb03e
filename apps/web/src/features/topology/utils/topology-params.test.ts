import { describe, expect, it } from 'vitest';
import { applyTopologyParams, componentHref, componentSearch, parseTopologyParams, topologyApiQuery } from './topology-params';

describe('topology page parameters', () => {
  it('defaults to status descending with hidden components shown', () => {
    const params = parseTopologyParams(new URLSearchParams());
    expect(params).toMatchObject({ sortBy: 'status', sortOrder: 'desc', showHidden: true, type: '', team: '' });
  });

  it('reads showHiddenComponents=no as hiding hidden components and All as no filter', () => {
    const params = parseTopologyParams(new URLSearchParams('showHiddenComponents=no&type=All&team=payments'));
    expect(params.showHidden).toBe(false);
    expect(params.type).toBe('');
    expect(params.team).toBe('payments');
  });

  it('keeps every parameter but refererId and status when moving to another component', () => {
    const search = new URLSearchParams('type=Kubernetes&status=unhealthy&refererId=old&labels=env%3Dprod&sortBy=name');
    const next = new URLSearchParams(componentSearch(search, 'parent-1'));
    expect(Object.fromEntries(next)).toEqual({ type: 'Kubernetes', labels: 'env=prod', sortBy: 'name', refererId: 'parent-1' });
  });

  it('adds no refererId when the move is not a drill-down from a component', () => {
    expect(componentSearch(new URLSearchParams('status=warning&refererId=x'))).toBe('');
    expect(componentHref('c 1', new URLSearchParams('team=ops'))).toBe('/topology/c%201?team=ops');
  });

  it('drops empty, All and default values from the URL', () => {
    const next = applyTopologyParams(new URLSearchParams('type=A&team=B'), { type: 'All', team: '', sortBy: 'status', sortOrder: 'asc', showHiddenComponents: 'yes' });
    expect(next.toString()).toBe('sortOrder=asc');
  });

  it('sends only the set filters to the API, with the id when there is one', () => {
    const params = parseTopologyParams(new URLSearchParams('type=Kubernetes&agent_id=local&sortBy=name&refererId=r'));
    expect(topologyApiQuery(params, 'c1')).toEqual({ id: 'c1', type: 'Kubernetes', agent_id: 'local' });
    expect(topologyApiQuery(parseTopologyParams(new URLSearchParams('status=All')), undefined)).toEqual({});
  });
});
