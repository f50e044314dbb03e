import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { SeverityBadge } from '@/components/status/severity-badge';
import { useComponentChangesQuery } from '../../api/get-component-changes';
import { RelativeTime } from './relative-time';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SectionQuery } from './section-query';

/** Changes: of the catalog items linked to the component, newest first; each leads to its item. */
export function ChangesSection({ component }: { component: TopologyComponent }) {
  const changes = useComponentChangesQuery(component.id);
  return (
    <SectionQuery query={changes} subject="Changes" emptyText="No changes">
      {(rows) => (
        <ul className={SECTION_LIST_CLASS}>
          {rows.map((change) => (
            <li key={change.id} className="flex min-w-0 flex-col gap-0.5 py-1.5 text-sm">
              <span className="flex min-w-0 items-center gap-2">
                <span className="shrink-0 font-medium text-gray-900">{change.change_type}</span>
                <Link to={`/catalog/${change.config_id}`} className={SECTION_LINK_CLASS}>
                  {change.config_name}
                </Link>
                {change.severity && <SeverityBadge severity={change.severity} className="ml-auto" />}
                <RelativeTime at={change.created_at} />
              </span>
              {change.summary && <span className="truncate text-xs text-gray-600">{change.summary}</span>}
            </li>
          ))}
        </ul>
      )}
    </SectionQuery>
  );
}
