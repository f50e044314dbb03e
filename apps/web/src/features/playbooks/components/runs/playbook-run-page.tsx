import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Ban, CheckCheck, RotateCw } from 'lucide-react';
import { isActivePlaybookRun, type PlaybookRun } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DetailSkeleton } from '@/components/detail-page/detail-page';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { QueryError } from '@/components/status/query-error';
import { isApiError } from '@/lib/api/api-error';
import { usePermissions } from '@/lib/auth/permissions';
import { playbookRunPath } from '@/lib/playbook-run/playbook-run-slot';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useApprovePlaybookRun } from '../../api/approve-playbook-run';
import { useCancelPlaybookRun } from '../../api/cancel-playbook-run';
import { usePlaybookRunQuery } from '../../api/get-playbook-run';
import { useRerunPlaybook } from '../../api/rerun-playbook';
import { DownloadLogsMenu } from './download-logs-menu';
import { RunActionsList } from './run-actions-list';
import { RunHeader } from './run-header';
import { RunOutput } from './run-output';
import { runSteps, selectedStepId } from './run-steps';
import { RunsBreadcrumb } from './runs-breadcrumb';

function runTitle(run: PlaybookRun): string {
  return run.playbooks?.title ?? run.playbooks?.name ?? 'Playbook run';
}

function RunDetail({ run }: { run: PlaybookRun }) {
  const navigate = useNavigate();
  const { can } = usePermissions();
  const canRun = can('playbook_runs', 'write');
  const rerun = useRerunPlaybook();
  const cancel = useCancelPlaybookRun();
  const approve = useApprovePlaybookRun();
  const [isConfirmingCancel, setIsConfirmingCancel] = useState(false);
  const [chosenStepId, setChosenStepId] = useState<string | null>(null);

  const steps = useMemo(() => runSteps(run), [run]);
  const selectedId = selectedStepId(steps, chosenStepId);
  const selected = steps.find((step) => step.id === selectedId) ?? null;
  const isActive = isActivePlaybookRun(run.status);

  const handleRerun = () => rerun.mutate(run, { onSuccess: ({ run_id }) => void navigate(playbookRunPath(run_id)) });
  const handleCancel = () => cancel.mutate(run.id, { onSettled: () => setIsConfirmingCancel(false) });

  return (
    <>
      <header className="flex flex-wrap items-center gap-2">
        <RunsBreadcrumb current={runTitle(run)} />
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
          {/* Being a listed approver is what lets one approve, whatever the role: the server decides and says why not. */}
          {run.status === 'waiting' && (
            <Button isPending={approve.isPending} onClick={() => approve.mutate({ playbookId: run.playbook_id, runId: run.id })}>
              <CheckCheck aria-hidden="true" className="size-4" />
              Approve
            </Button>
          )}
          {canRun && isActive && (
            <Button variant="secondary" onClick={() => setIsConfirmingCancel(true)}>
              <Ban aria-hidden="true" className="size-4" />
              Cancel
            </Button>
          )}
          {canRun && (
            <Button variant="secondary" isPending={rerun.isPending} onClick={handleRerun}>
              {!rerun.isPending && <RotateCw aria-hidden="true" className="size-4" />}
              Re-run playbook
            </Button>
          )}
          <DownloadLogsMenu runId={run.id} selected={selected} />
        </div>
      </header>
      <RunHeader run={run} />
      <div className="flex min-h-0 min-w-0 flex-col gap-3 lg:flex-row">
        <aside aria-label="Run actions" className="shrink-0 rounded-md border border-gray-200 bg-white lg:w-72">
          <RunActionsList steps={steps} selectedId={selectedId} onSelect={setChosenStepId} />
        </aside>
        <div aria-label="Log output" role="region" className="min-w-0 flex-1 rounded-md border border-gray-200 bg-white">
          <RunOutput step={selected} />
        </div>
      </div>
      <ConfirmDialog
        open={isConfirmingCancel}
        onOpenChange={setIsConfirmingCancel}
        title="Cancel playbook run"
        message="Cancel this run? An action that is running now is stopped, and the actions after it do not run."
        confirmLabel="Cancel run"
        cancelLabel="Keep running"
        isPending={cancel.isPending}
        onConfirm={handleCancel}
      />
    </>
  );
}

/** /playbooks/runs/{id}: a run's header, actions and their output, refreshed every 5 s while it can change (spec 001 §2.5, §4). */
export function PlaybookRunPage() {
  const { id = '' } = useParams();
  const run = usePlaybookRunQuery(id);
  useDocumentTitle(run.data ? runTitle(run.data) : 'Playbook run');

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      {run.data !== undefined ? (
        <>
          {/* A failed poll keeps the run last read on screen and says why it stopped updating. */}
          {run.isError && <QueryError subject="The latest state of this run" error={run.error} onRetry={() => void run.refetch()} />}
          <RunDetail key={run.data.id} run={run.data} />
        </>
      ) : run.isError ? (
        <>
          <RunsBreadcrumb current="Playbook run" />
          {isApiError(run.error) && run.error.status === 404 ? (
            <p className="py-8 text-center text-sm text-gray-500">Playbook run not found</p>
          ) : (
            <QueryError subject="Playbook run" error={run.error} onRetry={() => void run.refetch()} />
          )}
        </>
      ) : (
        <>
          <RunsBreadcrumb current="" />
          <DetailSkeleton />
        </>
      )}
    </section>
  );
}
