import { useMemo, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { isWholeComponent } from '@opsdeck/shared';
import { QueryError } from '@/components/status/query-error';
import { usePreference } from '@/lib/preferences/use-preference';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useTopologyQuery } from '../api/get-topology';
import type { TopologyComponent } from '../api/types';
import { sortComponents } from '../utils/sort-components';
import { topologyApiQuery, useTopologyParams } from '../utils/topology-params';
import { SIDE_PANEL_OPEN_KEY, useCardPreferences } from '../utils/use-card-preferences';
import { AMBIGUOUS_COMPONENT_MESSAGE, EmptyMessage, NO_COMPONENTS_MESSAGE } from './empty-message';
import { TopologySidePanel } from './side-panel/topology-side-panel';
import { TopologyBreadcrumb } from './topology-breadcrumb';
import { TopologyCardGrid, TopologyCardsSkeleton } from './topology-card-grid';
import { LOCAL_AGENT, TopologyFilters } from './topology-filters';

/** Spec 001 §3: the all-zero agent id means no agent, as a null one does. */
const NO_AGENT_ID = '00000000-0000-0000-0000-000000000000';

function agentIdsOf(components: readonly TopologyComponent[]): string[] {
  const ids = new Set(components.map((component) => (component.agent_id === null || component.agent_id === NO_AGENT_ID ? LOCAL_AGENT : component.agent_id)));
  return [...ids].sort((a, b) => (a === LOCAL_AGENT ? -1 : b === LOCAL_AGENT ? 1 : a.localeCompare(b)));
}

function propertyNamesOf(components: readonly TopologyComponent[]): string[] {
  const names = new Set(components.flatMap((component) => component.properties.filter((property) => property.hidden !== true).map((property) => property.name)));
  return [...names].sort((a, b) => a.localeCompare(b));
}

interface TopologyViewProps {
  id: string | undefined;
}

function TopologyView({ id }: TopologyViewProps) {
  const { params, search, update } = useTopologyParams();
  const preferences = useCardPreferences();
  const query = useTopologyQuery(topologyApiQuery(params, id));
  const [panelOpen, setPanelOpen] = usePreference(SIDE_PANEL_OPEN_KEY, 'yes');
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const components = query.data?.components;
  const ambiguous = id !== undefined && components !== undefined && components.length > 1;
  const current = id !== undefined && components?.length === 1 ? components[0] : undefined;
  // Under the component asked for, the cards come whole; a row there breaks the contract and lacks what a card draws.
  const level = useMemo(
    () => (id === undefined ? (components ?? []) : (current?.components ?? []).filter(isWholeComponent)),
    [id, components, current],
  );
  const cards = useMemo(
    () => sortComponents(params.showHidden ? level : level.filter((component) => !component.hidden), params.sortBy, params.sortOrder),
    [level, params.showHidden, params.sortBy, params.sortOrder],
  );
  const agentIds = useMemo(() => agentIdsOf(level), [level]);
  const propertyNames = useMemo(() => propertyNamesOf(level), [level]);
  useDocumentTitle(current?.name ?? 'Topology');

  const panelComponent = cards.find((card) => card.id === selectedId) ?? current;
  const handleOpenSidePanel = (component: TopologyComponent) => {
    setSelectedId(component.id);
    setPanelOpen('yes');
  };

  let body: ReactNode;
  if (query.isError) body = <QueryError subject="Topology" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.isPending) body = <TopologyCardsSkeleton width={preferences.width} />;
  else if (ambiguous) body = <EmptyMessage>{AMBIGUOUS_COMPONENT_MESSAGE}</EmptyMessage>;
  else if (cards.length === 0) body = <EmptyMessage>{NO_COMPONENTS_MESSAGE}</EmptyMessage>;
  else body = <TopologyCardGrid components={cards} layout={preferences} search={search} refererId={id} onOpenSidePanel={handleOpenSidePanel} />;

  return (
    <section className="flex min-h-0 flex-col gap-2 p-4">
      <TopologyBreadcrumb component={current} search={search} />
      <TopologyFilters params={params} onChange={update} preferences={preferences} facets={query.data} agentIds={agentIds} propertyNames={propertyNames} />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="min-w-0 flex-1">{body}</div>
        {panelComponent !== undefined && (
          <div className="max-w-full min-w-0 lg:shrink-0">
            <TopologySidePanel component={panelComponent} open={panelOpen !== 'no'} onOpenChange={(open) => setPanelOpen(open ? 'yes' : 'no')} />
          </div>
        )}
      </div>
    </section>
  );
}

/** /topology and /topology/{id}: the roots, or a component's children, as cards (spec 001 §2.9). */
export function TopologyPage() {
  const { id } = useParams();
  // A new component starts with no card picked for the side panel.
  return <TopologyView key={id ?? ''} id={id} />;
}
