import { describe, expect, it } from 'vitest';
import type { ConfigNodeItem, RelatedConfig } from '../api/types';
import { buildRelationshipGraph, layoutRelationshipGraph, NODE_SEPARATION, RANK_SEPARATION, NODE_WIDTH } from './build-relationship-graph';

const root: ConfigNodeItem = { id: 'root', name: 'checkout', type: 'Kubernetes::Deployment', health: 'healthy', status: 'Running', deleted_at: null };

function item(id: string, type: string, overrides: Partial<RelatedConfig> = {}): RelatedConfig {
  return { id, name: id, type, config_class: type.split('::')[0] ?? type, status: null, health: null, deleted_at: null, related_ids: ['root'], depth: 1, relation: 'child', directions: ['outgoing'], ...overrides };
}

const pods = (count: number) => Array.from({ length: count }, (_, index) => item(`pod-${index}`, 'Kubernetes::Pod'));
const ids = (graph: ReturnType<typeof buildRelationshipGraph>) => graph.nodes.map((node) => node.id).sort();

describe('buildRelationshipGraph', () => {
  it('draws two items of one type straight from the current item, without a group', () => {
    const graph = buildRelationshipGraph(root, pods(2), new Set());
    expect(graph.nodes.some((node) => node.kind === 'group')).toBe(false);
    expect(graph.edges.map((edge) => `${edge.source}->${edge.target}`).sort()).toEqual(['root->pod-0', 'root->pod-1']);
  });

  it('puts three items of one type under an expanded group node', () => {
    const graph = buildRelationshipGraph(root, pods(3), new Set());
    const group = graph.nodes.find((node) => node.kind === 'group');
    expect(group).toMatchObject({ kind: 'group', type: 'Kubernetes::Pod', collapsed: false, childIds: ['pod-0', 'pod-1', 'pod-2'] });
    expect(ids(graph)).toEqual([group?.id, 'pod-0', 'pod-1', 'pod-2', 'root'].sort());
    expect(graph.edges.map((edge) => edge.source)).toEqual([`root`, group?.id, group?.id, group?.id]);
  });

  it('groups only siblings of the same type', () => {
    const graph = buildRelationshipGraph(root, [...pods(2), item('svc', 'Kubernetes::Service'), item('cm', 'Kubernetes::ConfigMap')], new Set());
    expect(graph.nodes.filter((node) => node.kind === 'group')).toEqual([]);
  });

  it('collapses a group of more than three until it is toggled, hiding its children', () => {
    const collapsed = buildRelationshipGraph(root, pods(4), new Set());
    const group = collapsed.nodes.find((node) => node.kind === 'group');
    expect(group).toMatchObject({ collapsed: true });
    expect(ids(collapsed)).toEqual([group?.id, 'root'].sort());
    const expanded = buildRelationshipGraph(root, pods(4), new Set([group?.id ?? '']));
    expect(expanded.nodes.find((node) => node.kind === 'group')).toMatchObject({ collapsed: false });
    expect(ids(expanded)).toHaveLength(6);
  });

  it('collapses a group of three once it is toggled', () => {
    const open = buildRelationshipGraph(root, pods(3), new Set());
    const groupId = open.nodes.find((node) => node.kind === 'group')?.id ?? '';
    expect(ids(buildRelationshipGraph(root, pods(3), new Set([groupId])))).toEqual([groupId, 'root'].sort());
  });

  it('hides what is reached only through a collapsed group', () => {
    const grandchild = item('container', 'Container', { related_ids: ['pod-0'], depth: 2 });
    const graph = buildRelationshipGraph(root, [...pods(4), grandchild], new Set());
    expect(graph.nodes.map((node) => node.id)).not.toContain('container');
  });

  it('keeps each item once, whatever the input repeats, and never repeats the current item', () => {
    const graph = buildRelationshipGraph(root, [item('svc', 'Kubernetes::Service'), item('svc', 'Kubernetes::Service'), item('root', 'Kubernetes::Deployment')], new Set());
    expect(ids(graph)).toEqual(['root', 'svc']);
    expect(graph.edges).toHaveLength(1);
  });

  it('points incoming links at the current item and hangs items reached through hidden ones off it', () => {
    const graph = buildRelationshipGraph(
      root,
      [item('ns', 'Kubernetes::Namespace', { relation: 'parent', directions: ['incoming'] }), item('far', 'AWS::IAM::Role', { related_ids: ['filtered-out'], depth: 2 })],
      new Set(),
    );
    expect(graph.edges.map((edge) => `${edge.source}->${edge.target}`).sort()).toEqual(['ns->root', 'root->far']);
  });
});

describe('layoutRelationshipGraph', () => {
  const graph = buildRelationshipGraph(root, pods(2), new Set());
  const position = (layout: ReturnType<typeof layoutRelationshipGraph>, id: string) => layout.find((entry) => entry.node.id === id);

  it('lays out left to right when horizontal, one rank separation beyond the node', () => {
    const layout = layoutRelationshipGraph(graph, 'horizontal');
    const from = position(layout, 'root');
    const to = position(layout, 'pod-0');
    expect((to?.x ?? 0) - (from?.x ?? 0)).toBe(NODE_WIDTH + RANK_SEPARATION);
    expect(Math.abs((position(layout, 'pod-1')?.y ?? 0) - (to?.y ?? 0))).toBeGreaterThanOrEqual(NODE_SEPARATION);
  });

  it('lays out top to bottom when vertical', () => {
    const layout = layoutRelationshipGraph(graph, 'vertical');
    const from = position(layout, 'root');
    const to = position(layout, 'pod-0');
    expect((to?.y ?? 0)).toBeGreaterThan(from?.y ?? 0);
    expect(position(layout, 'pod-0')?.y).toBe(position(layout, 'pod-1')?.y);
    expect(layout).not.toEqual(layoutRelationshipGraph(graph, 'horizontal'));
  });
});
