import { describe, expect, it } from 'vitest';
import type { ComponentStatus } from '@opsdeck/shared';
import { makeComponent, makeRow } from '../topology-test-support';
import { byHealth, sortComponents } from './sort-components';

const named = (name: string, status: ComponentStatus, value?: number) =>
  makeComponent({ id: name, name, status, properties: value === undefined ? [] : [{ name: 'cpu', value }] });

describe('sorting topology cards', () => {
  const components = [named('b', 'healthy', 5), named('a', 'unknown'), named('c', 'unhealthy', 9), named('d', 'warning', 1)];

  it('puts unhealthy first, then warning, healthy and unknown for status descending', () => {
    expect(sortComponents(components, 'status', 'desc').map((component) => component.status)).toEqual(['unhealthy', 'warning', 'healthy', 'unknown']);
  });

  it('reverses the order for status ascending', () => {
    expect(sortComponents(components, 'status', 'asc').map((component) => component.name)).toEqual(['a', 'b', 'd', 'c']);
  });

  it('sorts by name', () => {
    expect(sortComponents(components, 'name', 'asc').map((component) => component.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('sorts by a property value, components without it last', () => {
    expect(sortComponents(components, 'field:cpu', 'desc').map((component) => component.name)).toEqual(['c', 'b', 'd', 'a']);
    expect(sortComponents(components, 'field:cpu', 'asc').map((component) => component.name)).toEqual(['d', 'b', 'c', 'a']);
  });
});

describe('sorting the children listed in a card', () => {
  it('orders rows unhealthy, warning, healthy, unknown, then by name', () => {
    const rows = [
      makeRow({ id: '1', name: 'pod-10', status: 'healthy' }),
      makeRow({ id: '2', name: 'pod-2', status: 'healthy' }),
      makeRow({ id: '3', name: 'pod-1', status: 'unknown' }),
      makeRow({ id: '4', name: 'pod-9', status: 'unhealthy' }),
      makeRow({ id: '5', name: 'pod-8', status: 'warning' }),
    ];
    expect(byHealth(rows).map((row) => row.name)).toEqual(['pod-9', 'pod-8', 'pod-2', 'pod-10', 'pod-1']);
  });

  it('puts rows last under a property sort, since rows carry no properties', () => {
    const mixed = [makeRow({ id: 'r', name: 'a-row', status: 'unhealthy' }), makeComponent({ id: 'c', name: 'z-card', properties: [{ name: 'cpu', value: 1 }] })];
    expect(sortComponents(mixed, 'field:cpu', 'desc').map((component) => component.name)).toEqual(['z-card', 'a-row']);
  });
});
