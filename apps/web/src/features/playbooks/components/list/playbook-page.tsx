import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { History, Pencil, Play, Trash2 } from 'lucide-react';
import { Button } from '@/components/button/button';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { DetailSkeleton } from '@/components/detail-page/detail-page';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { isUiSource } from '@/lib/resource-origin/resource-origin';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePlaybookQuery } from '../../api/get-playbook';
import type { PlaybookRow } from '../../api/get-playbooks';
import { DeletePlaybookDialog } from '../editor/delete-playbook-dialog';
import { PlaybookEditorDialog } from '../editor/playbook-editor-dialog';
import { specToText } from '../editor/playbook-spec-text';
import { RunPlaybookModal } from '../run/run-playbook-modal';
import { PlaybookIcon } from './playbook-icon';
import { PlaybookSummary } from './playbook-summary';

export const PLAYBOOK_NOT_FOUND_MESSAGE = 'Playbook not found';

const LINK_BUTTON =
  'inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-gray-800 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500';

type OpenDialog = 'run' | 'edit' | 'delete' | null;

function PlaybookDetail({ playbook }: { playbook: PlaybookRow }) {
  const navigate = useNavigate();
  const { can } = usePermissions();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const canEdit = can('playbooks', 'write') && isUiSource(playbook.source);
  const close = () => setDialog(null);
  const handleDeleted = () => void navigate('/playbooks');
  const facts: [string, string | null][] = [
    ['Name', playbook.name],
    ['Category', playbook.category],
    ['Source', playbook.source ?? 'UI'],
  ];

  return (
    <>
      <header className="flex flex-wrap items-start gap-3">
        <PlaybookIcon icon={playbook.icon} className="mt-1 size-6" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h1 className="truncate text-lg font-semibold text-gray-900">{playbook.title ?? playbook.name}</h1>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {facts
              .filter((fact): fact is [string, string] => fact[1] !== null && fact[1] !== '')
              .map(([term, value]) => (
                <div key={term} className="flex gap-1">
                  <dt className="text-gray-500">{term}</dt>
                  <dd className="text-gray-900">{value}</dd>
                </div>
              ))}
          </dl>
          {playbook.description && <p className="text-sm text-gray-600">{playbook.description}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/playbooks/runs?playbook=${encodeURIComponent(playbook.id)}`} className={LINK_BUTTON}>
            <History aria-hidden="true" className="size-4" />
            Runs
          </Link>
          {canEdit && (
            <>
              <Button variant="secondary" onClick={() => setDialog('edit')}>
                <Pencil aria-hidden="true" className="size-4" />
                Edit
              </Button>
              <Button variant="secondary" onClick={() => setDialog('delete')}>
                <Trash2 aria-hidden="true" className="size-4" />
                Delete
              </Button>
            </>
          )}
          {can('playbook_runs', 'write') && (
            <Button onClick={() => setDialog('run')}>
              <Play aria-hidden="true" className="size-4" />
              Run
            </Button>
          )}
        </div>
      </header>
      {!isUiSource(playbook.source) && (
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Defined by {playbook.source}: edit it where it is defined.
        </p>
      )}
      <PlaybookSummary spec={playbook.spec} />
      <section aria-labelledby="playbook-spec" className="flex flex-col gap-2">
        <h2 id="playbook-spec" className="text-sm font-semibold text-gray-900">
          Spec
        </h2>
        <CodeEditor language="yaml" value={specToText(playbook.spec)} readOnly rows={12} ariaLabelledBy="playbook-spec" />
      </section>
      {dialog === 'run' && <RunPlaybookModal playbook={playbook} onClose={close} />}
      {dialog === 'edit' && <PlaybookEditorDialog playbook={playbook} onClose={close} onDeleted={handleDeleted} />}
      {dialog === 'delete' && <DeletePlaybookDialog playbook={playbook} onClose={close} onDeleted={handleDeleted} />}
    </>
  );
}

/** /playbooks/{id}: what the playbook does, its spec, and Run, Edit, Delete and its runs. */
export function PlaybookPage() {
  const { id = '' } = useParams();
  const playbook = usePlaybookQuery(id);
  useDocumentTitle(playbook.data ? (playbook.data.title ?? playbook.data.name) : 'Playbook');

  let body;
  if (playbook.isError) body = <QueryError subject="Playbook" error={playbook.error} onRetry={() => void playbook.refetch()} />;
  else if (playbook.isPending) body = <DetailSkeleton />;
  else if (playbook.data === null) {
    body = (
      <div className="flex flex-col items-center gap-3 py-16 text-center">
        <p role="alert" className="text-sm text-gray-700">
          {PLAYBOOK_NOT_FOUND_MESSAGE}
        </p>
        <Link to="/playbooks" className="text-sm text-blue-700 hover:underline">
          Back to playbooks
        </Link>
      </div>
    );
  } else body = <PlaybookDetail playbook={playbook.data} />;

  return (
    <section className="flex min-h-0 flex-col gap-4 p-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/playbooks" className="text-blue-700 hover:underline">
          Playbooks
        </Link>
      </nav>
      {body}
    </section>
  );
}
