import { useMemo, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { isWholeComponent, type TopologyCardSize } from '@opsdeck/shared';
import { QueryError } from '@/components/status/query-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useTopologyQuery } from '../api/get-topology';
import { byHealth } from '../utils/sort-components';
import { cardLayout, isCardSize } from '../utils/use-card-preferences';
import { AMBIGUOUS_COMPONENT_MESSAGE, EmptyMessage } from './empty-message';
import { TopologyCardGrid, TopologyCardsSkeleton } from './topology-card-grid';

/** Spec 001 §2.9: the standalone view's cards are large unless `?size=` says otherwise. */
export const STANDALONE_DEFAULT_SIZE: TopologyCardSize = 'large';
export const COMPONENT_NOT_FOUND_MESSAGE = 'Component not found';

/** Links from an embedded view open the app's pages without the view's own parameters. */
const NO_SEARCH = new URLSearchParams();

/**
 * /view/topology/{id}: a component's children as cards, with no shell around them, for embedding in other dashboards.
 * A leaf has no children to draw, so it shows its own card instead of an empty page.
 */
export function TopologyStandalonePage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const requested = search.get('size');
  const layout = cardLayout(isCardSize(requested) ? requested : STANDALONE_DEFAULT_SIZE, null, 'summary');
  const query = useTopologyQuery({ id });
  const components = query.data?.components;
  const component = components?.length === 1 ? components[0] : undefined;
  const cards = useMemo(() => {
    if (component === undefined) return [];
    // The children of the component asked for come whole; a row there breaks the contract and lacks what a card draws.
    const children = (component.components ?? []).filter(isWholeComponent);
    return children.length > 0 ? byHealth(children) : [component];
  }, [component]);
  useDocumentTitle(component?.name ?? 'Topology');

  let body: ReactNode;
  if (query.isError) body = <QueryError subject="Topology" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.isPending) body = <TopologyCardsSkeleton width={layout.width} />;
  else if (components !== undefined && components.length > 1) body = <EmptyMessage>{AMBIGUOUS_COMPONENT_MESSAGE}</EmptyMessage>;
  else if (component === undefined) body = <EmptyMessage>{COMPONENT_NOT_FOUND_MESSAGE}</EmptyMessage>;
  else body = <TopologyCardGrid components={cards} layout={layout} search={NO_SEARCH} refererId={cards[0] === component ? undefined : component.id} />;

  // No breadcrumb here to carry the page's heading: screen readers (and the smoke crawl) still find one.
  const notFound = query.isSuccess && (components === undefined || components.length === 0);
  const heading = component?.name ?? (notFound ? COMPONENT_NOT_FOUND_MESSAGE : 'Topology');
  return (
    <main id="main" className="min-h-screen bg-gray-50 p-4">
      <h1 className="sr-only">{heading}</h1>
      {body}
    </main>
  );
}
