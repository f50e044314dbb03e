import type { TopologyComponent } from '../api/types';
import type { CardLayout } from '../utils/use-card-preferences';
import { TopologyCard } from './topology-card';

export interface TopologyCardGridProps {
  components: readonly TopologyComponent[];
  layout: CardLayout;
  search: URLSearchParams;
  refererId?: string;
  onOpenSidePanel?: (component: TopologyComponent) => void;
}

/** Cards side by side, wrapping onto as many rows as the screen needs. */
export function TopologyCardGrid({ components, layout, search, refererId, onOpenSidePanel }: TopologyCardGridProps) {
  return (
    <ul aria-label="Components" className="flex flex-wrap items-start gap-3">
      {components.map((component) => (
        <li key={component.id} className="flex max-w-full min-w-0">
          <TopologyCard component={component} layout={layout} search={search} refererId={refererId} onOpenSidePanel={onOpenSidePanel} />
        </li>
      ))}
    </ul>
  );
}

/** Placeholder cards while the first answer loads. */
export function TopologyCardsSkeleton({ width }: { width: number }) {
  return (
    <ul role="status" aria-busy="true" aria-label="Loading components" className="flex flex-wrap gap-3">
      {[0, 1, 2, 3, 4, 5].map((index) => (
        <li key={index} className="h-36 max-w-full animate-pulse rounded-md border border-t-4 border-gray-200 bg-white" style={{ width }} />
      ))}
    </ul>
  );
}
