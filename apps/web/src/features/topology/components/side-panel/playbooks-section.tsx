import type { TopologyComponent } from '@opsdeck/shared';
import { useComponentPlaybookRunsQuery } from '../../api/get-component-playbook-runs';
import { RelativeTime } from './relative-time';
import { SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Playbooks: the component's runs, newest first. */
export function PlaybooksSection({ component }: { component: TopologyComponent }) {
  const runs = useComponentPlaybookRunsQuery(component.id);
  return (
    <SectionQuery query={runs} subject="Playbook runs" emptyText="No playbook runs">
      {(rows) => (
        <ul className={SECTION_LIST_CLASS}>
          {rows.map((run) => (
            <li key={run.id} className={SECTION_ROW_CLASS}>
              <span className="min-w-0 truncate text-gray-900">{run.playbook?.title ?? run.playbook?.name ?? 'Playbook'}</span>
              <span className="ml-auto shrink-0 text-xs text-gray-600 capitalize">{run.status}</span>
              <RelativeTime at={run.start_time ?? run.created_at} />
            </li>
          ))}
        </ul>
      )}
    </SectionQuery>
  );
}
