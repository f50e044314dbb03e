import { Link } from 'react-router';
import { ChevronRight } from 'lucide-react';
import { usePathNamesQuery } from '../api/get-path-names';
import type { TopologyComponent } from '../api/types';
import { componentSearch } from '../utils/topology-params';
import { ComponentIcon } from './component-icon';

/** The ancestor ids of a component, root first, from its dot-separated `path`. */
export function pathIds(path: string): string[] {
  return path.split('.').filter((id) => id !== '');
}

export interface TopologyBreadcrumbProps {
  /** The component the page shows; absent on /topology. */
  component?: TopologyComponent;
  search: URLSearchParams;
}

const CRUMB = 'rounded hover:underline focus-visible:outline-2 focus-visible:outline-blue-500';

/** Topology › each ancestor › the current component, every step but the last a link (spec 001 §2.9). */
export function TopologyBreadcrumb({ component, search }: TopologyBreadcrumbProps) {
  const ids = component === undefined ? [] : pathIds(component.path).filter((id) => id !== component.id);
  const names = usePathNamesQuery(ids);
  const byId = new Map((names.data ?? []).map((row) => [row.id, row]));
  const keptSearch = componentSearch(search);
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-lg font-semibold text-gray-900">
        <li>
          {component === undefined ? (
            <h1 aria-current="page">Topology</h1>
          ) : (
            <Link to={`/topology${keptSearch}`} className={CRUMB}>
              Topology
            </Link>
          )}
        </li>
        {ids.map((id) => {
          const ancestor = byId.get(id);
          return (
            <li key={id} className="flex min-w-0 items-center gap-1">
              <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-gray-400" />
              <Link to={`/topology/${encodeURIComponent(id)}${keptSearch}`} className={`${CRUMB} flex min-w-0 items-center gap-1 truncate text-base font-medium text-gray-700`}>
                {ancestor !== undefined && <ComponentIcon icon={ancestor.icon} className="size-4" />}
                {ancestor?.name ?? '…'}
              </Link>
            </li>
          );
        })}
        {component !== undefined && (
          <li className="flex min-w-0 items-center gap-1">
            <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-gray-400" />
            <h1 aria-current="page" className="flex min-w-0 items-center gap-1 truncate">
              <ComponentIcon icon={component.icon} type={component.type} className="size-4" />
              {component.name}
            </h1>
          </li>
        )}
      </ol>
    </nav>
  );
}
