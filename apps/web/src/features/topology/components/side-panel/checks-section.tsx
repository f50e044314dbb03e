import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { HealthDot } from '@/components/status/health-dot';
import { useComponentChecksQuery } from '../../api/get-component-checks';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Checks: linked to the component; each opens on the health page. */
export function ChecksSection({ component }: { component: TopologyComponent }) {
  const checks = useComponentChecksQuery(component.id);
  return (
    <SectionQuery query={checks} subject="Checks" emptyText="No checks linked">
      {(rows) => (
        <ul className={SECTION_LIST_CLASS}>
          {rows.map((check) => (
            <li key={check.id} className={SECTION_ROW_CLASS}>
              <HealthDot status={check.status} />
              <Link to={`/health?checkId=${encodeURIComponent(check.id)}`} className={SECTION_LINK_CLASS}>
                {check.name}
              </Link>
              {check.type && <span className="ml-auto shrink-0 text-xs text-gray-500">{check.type}</span>}
            </li>
          ))}
        </ul>
      )}
    </SectionQuery>
  );
}
