import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { SeverityBadge } from '@/components/status/severity-badge';
import { useComponentIncidentsQuery } from '../../api/get-component-incidents';
import { RelativeTime } from './relative-time';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Incidents: those whose evidence points at the component, newest first. */
export function IncidentsSection({ component }: { component: TopologyComponent }) {
  const incidents = useComponentIncidentsQuery(component.id);
  return (
    <SectionQuery query={incidents} subject="Incidents" emptyText="No incidents">
      {(rows) => (
        <ul className={SECTION_LIST_CLASS}>
          {rows.map((incident) => (
            <li key={incident.id} className={SECTION_ROW_CLASS}>
              {incident.severity && <SeverityBadge severity={incident.severity} />}
              <Link to={`/incidents/${incident.id}`} className={SECTION_LINK_CLASS}>
                {incident.incident_id} {incident.title}
              </Link>
              <span className="ml-auto shrink-0 text-xs text-gray-600 capitalize">{incident.status}</span>
              <RelativeTime at={incident.created_at} />
            </li>
          ))}
        </ul>
      )}
    </SectionQuery>
  );
}
