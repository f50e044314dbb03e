import { Link } from 'react-router';
import type { TopologyComponent } from '@opsdeck/shared';
import { PlaybooksMenuSlot, playbookRunPath } from '@/lib/playbook-run/playbook-run-slot';
import { useComponentPlaybookRunsQuery } from '../../api/get-component-playbook-runs';
import { RelativeTime } from './relative-time';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Playbooks: a Run button offering the playbooks that run on the component, then its runs, newest first. */
export function PlaybooksSection({ component }: { component: TopologyComponent }) {
  const runs = useComponentPlaybookRunsQuery(component.id);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-end">
        <PlaybooksMenuSlot variant="button" target={{ type: 'component', id: component.id }} />
      </div>
      <SectionQuery query={runs} subject="Playbook runs" emptyText="No playbook runs">
        {(rows) => (
          <ul className={SECTION_LIST_CLASS}>
            {rows.map((run) => (
              <li key={run.id} className={SECTION_ROW_CLASS}>
                <Link to={playbookRunPath(run.id)} className={SECTION_LINK_CLASS}>
                  {run.playbook?.title ?? run.playbook?.name ?? 'Playbook'}
                </Link>
                <span className="ml-auto shrink-0 text-xs text-gray-600 capitalize">{run.status}</span>
                <RelativeTime at={run.start_time ?? run.created_at} />
              </li>
            ))}
          </ul>
        )}
      </SectionQuery>
    </div>
  );
}
