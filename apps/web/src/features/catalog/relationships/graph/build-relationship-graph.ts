import { Graph, layout } from '@dagrejs/dagre';
import type { ConfigNodeItem, RelatedConfig } from '../api/types';
import type { GraphLayoutDirection } from '../relationship-params';

/** Spec 002 §9: dagre's rank and node separation, and the group sizes of §4. */
export const RANK_SEPARATION = 120;
export const NODE_SEPARATION = 100;
/** Three or more items of one type reached from the same item at one level share an intermediary node. */
export const GROUP_THRESHOLD = 3;
/** Groups with more children than this start collapsed. */
export const COLLAPSE_ABOVE = 3;

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 64;

export interface ItemGraphNode {
  kind: 'item';
  id: string;
  item: ConfigNodeItem;
  isCurrent: boolean;
}

export interface GroupGraphNode {
  kind: 'group';
  id: string;
  type: string;
  childIds: string[];
  collapsed: boolean;
}

export type RelationshipGraphNode = ItemGraphNode | GroupGraphNode;

export interface RelationshipGraphEdge {
  id: string;
  source: string;
  target: string;
}

export interface PositionedNode<TNode extends RelationshipGraphNode = RelationshipGraphNode> {
  node: TNode;
  /** Top-left corner, as xyflow places nodes. */
  x: number;
  y: number;
}

export interface RelationshipGraph {
  nodes: RelationshipGraphNode[];
  edges: RelationshipGraphEdge[];
}

function groupId(parentId: string, direction: string, type: string): string {
  return `group:${direction}:${parentId}:${type}`;
}

/**
 * The item an edge to `item` starts from in the drawing: the first of its related ids still in the graph. A row
 * reached through items the filters left out has none, and hangs off the current item instead.
 */
function parentOf(item: RelatedConfig, present: ReadonlySet<string>, rootId: string): string {
  return item.related_ids.find((id) => present.has(id)) ?? rootId;
}

/**
 * The graph around `root`: every related item once, edges pointing the way the links do (incoming items upstream of
 * the root, outgoing ones downstream), and same-type siblings under a group node. `toggled` holds the groups the user
 * clicked, flipping their default state; what a collapsed group hides, and everything reached only through it, is
 * left out.
 */
export function buildRelationshipGraph(root: ConfigNodeItem, related: readonly RelatedConfig[], toggled: ReadonlySet<string>): RelationshipGraph {
  const unique = new Map<string, RelatedConfig>();
  for (const item of related) if (item.id !== root.id && !unique.has(item.id)) unique.set(item.id, item);
  const present = new Set([root.id, ...unique.keys()]);

  // Siblings: the items one parent leads to in one direction, by type.
  const siblings = new Map<string, { parentId: string; direction: string; type: string; childIds: string[] }>();
  const parents = new Map<string, string>();
  for (const item of unique.values()) {
    const parentId = parentOf(item, present, root.id);
    parents.set(item.id, parentId);
    const direction = item.directions[0] ?? 'outgoing';
    const key = groupId(parentId, direction, item.type);
    const entry = siblings.get(key) ?? { parentId, direction, type: item.type, childIds: [] };
    entry.childIds.push(item.id);
    siblings.set(key, entry);
  }

  const nodes: RelationshipGraphNode[] = [{ kind: 'item', id: root.id, item: root, isCurrent: true }];
  // Links as parent → child; the drawing flips the incoming ones at the end.
  const links: Array<{ from: string; to: string; incoming: boolean }> = [];
  const groupOf = new Map<string, string>();
  for (const [id, entry] of siblings) {
    if (entry.childIds.length < GROUP_THRESHOLD) continue;
    const collapsed = (entry.childIds.length > COLLAPSE_ABOVE) !== toggled.has(id);
    nodes.push({ kind: 'group', id, type: entry.type, childIds: entry.childIds, collapsed });
    links.push({ from: entry.parentId, to: id, incoming: entry.direction === 'incoming' });
    for (const childId of entry.childIds) groupOf.set(childId, id);
  }
  for (const item of unique.values()) {
    nodes.push({ kind: 'item', id: item.id, item, isCurrent: false });
    const incoming = !item.directions.includes('outgoing');
    const group = groupOf.get(item.id);
    links.push({ from: group ?? parents.get(item.id) ?? root.id, to: item.id, incoming });
    // Other items leading here are drawn as direct edges; grouping uses only the first.
    for (const other of item.related_ids) {
      if (other !== parents.get(item.id) && present.has(other)) links.push({ from: other, to: item.id, incoming });
    }
  }

  // Only what can be reached from the root without passing a collapsed group is shown.
  const collapsed = new Set(nodes.filter((node) => node.kind === 'group' && node.collapsed).map((node) => node.id));
  const outgoingLinks = new Map<string, string[]>();
  for (const link of links) {
    if (collapsed.has(link.from)) continue;
    outgoingLinks.set(link.from, [...(outgoingLinks.get(link.from) ?? []), link.to]);
  }
  const visible = new Set([root.id]);
  const queue = [root.id];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const to of outgoingLinks.get(next) ?? []) {
      if (visible.has(to)) continue;
      visible.add(to);
      queue.push(to);
    }
  }

  const edges = new Map<string, RelationshipGraphEdge>();
  for (const link of links) {
    if (!visible.has(link.from) || !visible.has(link.to) || collapsed.has(link.from)) continue;
    const [source, target] = link.incoming ? [link.to, link.from] : [link.from, link.to];
    const id = `${source}->${target}`;
    if (!edges.has(id)) edges.set(id, { id, source, target });
  }
  return { nodes: nodes.filter((node) => visible.has(node.id)), edges: [...edges.values()] };
}

/** Positions from dagre: left to right for horizontal, top to bottom for vertical. */
export function layoutRelationshipGraph(graph: RelationshipGraph, direction: GraphLayoutDirection): PositionedNode[] {
  const dagreGraph = new Graph();
  dagreGraph.setGraph({ rankdir: direction === 'horizontal' ? 'LR' : 'TB', ranksep: RANK_SEPARATION, nodesep: NODE_SEPARATION });
  dagreGraph.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) dagreGraph.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of graph.edges) dagreGraph.setEdge(edge.source, edge.target);
  layout(dagreGraph);
  return graph.nodes.map((node) => {
    const { x, y } = dagreGraph.node(node.id) as { x: number; y: number };
    return { node, x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 };
  });
}
