import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { SeverityBadge } from '@/components/status/severity-badge';
import { useComponentInsightsQuery } from '../../api/get-component-insights';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SectionQuery } from './section-query';

/** Insights: the open findings on the catalog items linked to the component. */
export function InsightsSection({ component }: { component: TopologyComponent }) {
  const insights = useComponentInsightsQuery(component.id);
  return (
    <div className="flex flex-col gap-2">
      <SectionQuery query={insights} subject="Insights" emptyText="No open insights">
        {(rows) => (
          <ul className={SECTION_LIST_CLASS}>
            {rows.map((insight) => (
              <li key={insight.id} className="flex min-w-0 flex-col gap-0.5 py-1.5 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  {insight.severity && <SeverityBadge severity={insight.severity} />}
                  <span className="shrink-0 text-xs text-gray-600">{insight.analysis_type}</span>
                  <Link to={`/catalog/${insight.config_id}/insights`} className={SECTION_LINK_CLASS}>
                    {insight.config_name}
                  </Link>
                </span>
                <span className="truncate text-xs text-gray-600">{insight.summary ?? insight.analyzer}</span>
              </li>
            ))}
          </ul>
        )}
      </SectionQuery>
      <Link to={`/catalog/insights?component=${encodeURIComponent(component.id)}`} className={`${SECTION_LINK_CLASS} self-start text-sm`}>
        All insights of this component
      </Link>
    </div>
  );
}
