import { Link } from 'react-router';
import { ChevronRight } from 'lucide-react';

export const PLAYBOOKS_PATH = '/playbooks';
export const PLAYBOOK_RUNS_PATH = '/playbooks/runs';

function Separator() {
  return (
    <li aria-hidden="true" className="shrink-0">
      <ChevronRight className="size-4 text-gray-400" />
    </li>
  );
}

/** Playbooks › Runs on the list; Playbooks › Runs › {run} on a run's page. */
export function RunsBreadcrumb({ current }: { current?: string }) {
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-lg font-semibold text-gray-900">
        <li className="shrink-0">
          <Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">
            Playbooks
          </Link>
        </li>
        <Separator />
        <li className="shrink-0">
          {current === undefined ? (
            <h1 aria-current="page">Runs</h1>
          ) : (
            <Link to={PLAYBOOK_RUNS_PATH} className="text-blue-700 hover:underline">
              Runs
            </Link>
          )}
        </li>
        {current !== undefined && (
          <>
            <Separator />
            <li className="min-w-0">
              <h1 aria-current="page" className="truncate">
                {current}
              </h1>
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}
