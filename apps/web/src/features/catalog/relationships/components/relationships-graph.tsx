import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Controls, Handle, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type NodeProps, type NodeTypes } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { HealthDot } from '@/components/status/health-dot';
import type { ConfigNodeItem, RelatedConfig } from '../api/types';
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  buildRelationshipGraph,
  layoutRelationshipGraph,
  type GroupGraphNode,
  type ItemGraphNode,
} from '../graph/build-relationship-graph';
import type { GraphCurve, GraphLayoutDirection } from '../relationship-params';

/**
 * The graph opens fitted whole (#34 item 7): at 1440 px the item's neighbours were cut at the edges, and on a phone the
 * item itself sat mostly off-screen, when the view centred the item at full size. Never larger than life.
 */
const WHOLE_GRAPH = { padding: 0.1, maxZoom: 1 } as const;

/** Spec 002 §9: a group click zooms with this animation. */
const ZOOM_DURATION_MS = 300;

const EDGE_TYPES: Record<GraphCurve, string> = { bezier: 'default', step: 'smoothstep', straight: 'straight' };

interface HandleSides {
  source: Position;
  target: Position;
}

type ItemNodeData = { graphNode: ItemGraphNode; sides: HandleSides };
type GroupNodeData = { graphNode: GroupGraphNode; sides: HandleSides; onToggle: (group: GroupGraphNode) => void };
type ItemFlowNode = Node<ItemNodeData, 'item'>;
type GroupFlowNode = Node<GroupNodeData, 'group'>;

/** Nodes are links and buttons; 'nopan' keeps a press on them from starting a pan of the canvas. */
function Handles({ sides }: { sides: HandleSides }) {
  return (
    <>
      <Handle type="target" position={sides.target} isConnectable={false} className="opacity-0" />
      <Handle type="source" position={sides.source} isConnectable={false} className="opacity-0" />
    </>
  );
}

const ItemNode = memo(function ItemNode({ data }: NodeProps<ItemFlowNode>) {
  const { item, isCurrent } = data.graphNode;
  const { search } = useLocation();
  return (
    <div style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}>
      <Handles sides={data.sides} />
      <Link
        to={{ pathname: `/catalog/${item.id}/relationships`, search }}
        aria-current={isCurrent ? 'page' : undefined}
        title={`${item.name} (${item.type})`}
        className={clsx(
          'nopan flex size-full flex-col justify-center gap-0.5 rounded-md border bg-white px-3 text-left shadow-sm focus-visible:outline-2 focus-visible:outline-blue-500',
          isCurrent ? 'border-blue-500 ring-2 ring-blue-500' : 'border-gray-300 hover:border-blue-400',
          item.deleted_at && 'opacity-60',
        )}
      >
        <span className="flex items-center gap-1.5 truncate text-sm font-medium text-gray-900">
          <HealthDot status={item.health} />
          <span className="truncate">{item.name}</span>
        </span>
        <span className="truncate text-xs text-gray-500">
          {item.type}
          {item.deleted_at && ' · deleted'}
        </span>
      </Link>
    </div>
  );
});

const GroupNode = memo(function GroupNode({ data }: NodeProps<GroupFlowNode>) {
  const group = data.graphNode;
  const Chevron = group.collapsed ? ChevronRight : ChevronDown;
  return (
    <div style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}>
      <Handles sides={data.sides} />
      <button
        type="button"
        aria-expanded={!group.collapsed}
        onClick={() => data.onToggle(group)}
        className="nopan flex size-full items-center gap-2 rounded-md border border-dashed border-gray-400 bg-gray-50 px-3 text-left text-sm text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        <Chevron aria-hidden="true" className="size-4 shrink-0" />
        <span className="truncate">{group.type}</span>
        <span className="ml-auto rounded-full bg-gray-200 px-2 text-xs">{group.childIds.length}</span>
      </button>
    </div>
  );
});

const NODE_TYPES: NodeTypes = { item: ItemNode, group: GroupNode };

export interface RelationshipsGraphProps {
  root: ConfigNodeItem;
  related: readonly RelatedConfig[];
  direction: GraphLayoutDirection;
  curve: GraphCurve;
}

function GraphCanvas({ root, related, direction, curve }: RelationshipsGraphProps) {
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const [focus, setFocus] = useState<{ ids: string[]; seq: number } | null>(null);
  const { fitView } = useReactFlow();

  const sides = useMemo<HandleSides>(
    () => (direction === 'horizontal' ? { source: Position.Right, target: Position.Left } : { source: Position.Bottom, target: Position.Top }),
    [direction],
  );
  const graph = useMemo(() => buildRelationshipGraph(root, related, toggled), [root, related, toggled]);
  const positioned = useMemo(() => layoutRelationshipGraph(graph, direction), [graph, direction]);

  const nodes = useMemo<Array<ItemFlowNode | GroupFlowNode>>(() => {
    const handleToggle = (group: GroupGraphNode) => {
      setToggled((previous) => {
        const next = new Set(previous);
        if (next.has(group.id)) next.delete(group.id);
        else next.add(group.id);
        return next;
      });
      setFocus((previous) => ({ ids: [group.id, ...group.childIds], seq: (previous?.seq ?? 0) + 1 }));
    };
    return positioned.map(({ node, x, y }) =>
      node.kind === 'item'
        ? { id: node.id, type: 'item', position: { x, y }, width: NODE_WIDTH, height: NODE_HEIGHT, data: { graphNode: node, sides } }
        : { id: node.id, type: 'group', position: { x, y }, width: NODE_WIDTH, height: NODE_HEIGHT, data: { graphNode: node, sides, onToggle: handleToggle } },
    );
  }, [positioned, sides]);
  const edges = useMemo<Edge[]>(() => graph.edges.map((edge) => ({ ...edge, type: EDGE_TYPES[curve] })), [graph.edges, curve]);

  // A toggled group and what it opened come into view; the nodes it closed are gone, so only those still drawn count.
  useEffect(() => {
    if (focus === null) return;
    void fitView({ nodes: focus.ids.map((id) => ({ id })), duration: ZOOM_DURATION_MS, maxZoom: 1 });
  }, [focus, fitView]);

  // Other relations (the Incoming and Outgoing toggles) or another item: the graph is new, so it is fitted whole again.
  const shown = useRef({ root: root.id, related });
  useEffect(() => {
    if (shown.current.root === root.id && shown.current.related === related) return;
    shown.current = { root: root.id, related };
    void fitView(WHOLE_GRAPH);
  }, [root.id, related, fitView]);

  // A new layout direction moves every node: fit the whole graph again.
  const firstDirection = useRef(direction);
  useEffect(() => {
    if (firstDirection.current === direction) return;
    firstDirection.current = direction;
    void fitView({ ...WHOLE_GRAPH, duration: ZOOM_DURATION_MS });
  }, [direction, fitView]);

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      nodesDraggable={false}
      nodesConnectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      fitView
      fitViewOptions={WHOLE_GRAPH}
      minZoom={0.1}
      proOptions={{ hideAttribution: true }}
      aria-label="Relationship graph"
    >
      {/* Zoom and Fit View: after panning or opening groups, one click shows the whole graph again. */}
      <Controls showInteractive={false} position="top-right" fitViewOptions={{ ...WHOLE_GRAPH, duration: ZOOM_DURATION_MS }} />
    </ReactFlow>
  );
}

/**
 * The relationship graph of one item, laid out by dagre; loaded on demand, so xyflow and dagre reach the browser only
 * when someone opens the graph.
 */
export function RelationshipsGraph(props: RelationshipsGraphProps) {
  return (
    <div className="h-[70vh] min-h-80 w-full rounded-md border border-gray-200">
      <ReactFlowProvider>
        <GraphCanvas {...props} />
      </ReactFlowProvider>
    </div>
  );
}
