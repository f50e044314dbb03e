import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { History, Plus } from 'lucide-react';
import { Button } from '@/components/button/button';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePlaybooksQuery } from '../../api/get-playbooks';
import { PlaybookEditorDialog } from '../editor/playbook-editor-dialog';
import { groupPlaybooks } from './group-playbooks';
import { PlaybookCard } from './playbook-card';

export const NO_PLAYBOOKS_MESSAGE = 'No playbooks yet';

const LINK_BUTTON =
  'inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-gray-800 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500';

/** /playbooks (spec 001 §2.5): playbook cards grouped by category, 'Other' last. */
export function PlaybooksPage() {
  useDocumentTitle('Playbooks');
  const playbooks = usePlaybooksQuery();
  const groups = useMemo(() => groupPlaybooks(playbooks.data ?? []), [playbooks.data]);
  const { can } = usePermissions();
  const canWrite = can('playbooks', 'write');
  const [isCreating, setIsCreating] = useState(false);

  const createButton = canWrite && (
    <Button onClick={() => setIsCreating(true)}>
      <Plus aria-hidden="true" className="size-4" />
      Create Playbook
    </Button>
  );

  let body;
  if (playbooks.isError) body = <QueryError subject="Playbooks" error={playbooks.error} onRetry={() => void playbooks.refetch()} />;
  else if (playbooks.isPending) {
    body = (
      <div aria-busy="true" aria-label="Loading playbooks" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((slot) => (
          <span key={slot} className="block h-24 animate-pulse rounded-lg bg-gray-100" />
        ))}
      </div>
    );
  } else if (groups.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-3 py-16 text-center">
        <p className="text-sm text-gray-600">{NO_PLAYBOOKS_MESSAGE}</p>
        {createButton}
      </div>
    );
  } else {
    body = groups.map((group) => {
      const headingId = `playbooks-category-${group.category.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
      return (
        <section key={group.category} aria-labelledby={headingId} className="flex flex-col gap-2">
          <h2 id={headingId} className="text-sm font-semibold text-gray-700">
            {group.category}
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
            {group.playbooks.map((playbook) => (
              <li key={playbook.id}>
                <PlaybookCard playbook={playbook} />
              </li>
            ))}
          </ul>
        </section>
      );
    });
  }

  return (
    <section className="flex min-h-0 flex-col gap-4 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-lg font-semibold text-gray-900">Playbooks</h1>
        <Link to="/playbooks/runs" className={LINK_BUTTON}>
          <History aria-hidden="true" className="size-4" />
          Runs
        </Link>
        {!(playbooks.isSuccess && groups.length === 0) && createButton}
      </header>
      {body}
      {isCreating && <PlaybookEditorDialog onClose={() => setIsCreating(false)} />}
    </section>
  );
}
