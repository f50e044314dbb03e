import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Popover } from 'radix-ui';
import { ChevronDown } from 'lucide-react';
import { formatDate, formatRelativeTime, type PlaybookRun } from '@opsdeck/shared';
import { RunStatusBadge } from './run-status-badge';
import { RUN_TARGET_LABELS, runTargetOf, runTargetPath } from './run-target';
import { runDuration, runQueued } from './run-times';

const NONE = '—';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="min-w-0 text-sm break-words text-gray-900">{children}</dd>
    </div>
  );
}

function Instant({ at }: { at: string | null }) {
  if (at === null) return <>{NONE}</>;
  return (
    <time dateTime={at} title={`${formatRelativeTime(at)} ago`}>
      {formatDate(at, 'datetime-seconds')}
    </time>
  );
}

/** The parameters the run was requested with, behind a 'Params' button next to the playbook. */
export function RunParams({ parameters }: { parameters: Record<string, string> }) {
  const entries = Object.entries(parameters);
  return (
    <Popover.Root>
      <Popover.Trigger className="inline-flex items-center gap-0.5 rounded text-xs text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500">
        Params ({entries.length})
        <ChevronDown aria-hidden="true" className="size-3" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label="Parameters"
          align="start"
          sideOffset={4}
          className="z-50 max-h-80 max-w-[min(24rem,90vw)] overflow-auto rounded-md bg-white p-3 text-sm shadow-lg ring-1 ring-gray-200"
        >
          {entries.length === 0 ? (
            <p className="text-gray-500">No parameters</p>
          ) : (
            <dl className="flex flex-col gap-2">
              {entries.map(([name, value]) => (
                <div key={name} className="flex min-w-0 flex-col">
                  <dt className="text-xs font-medium text-gray-500">{name}</dt>
                  <dd className="font-mono text-xs break-words whitespace-pre-wrap text-gray-900">{value === '' ? NONE : value}</dd>
                </div>
              ))}
            </dl>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function RunResource({ run }: { run: PlaybookRun }) {
  const ref = run.target ?? runTargetOf(run);
  if (ref === null) return <>{NONE}</>;
  const name = run.target?.name ?? ref.id;
  return (
    <Link to={runTargetPath(ref)} className="text-blue-700 hover:underline" title={`${RUN_TARGET_LABELS[ref.type]}${run.target?.kind ? ` · ${run.target.kind}` : ''}`}>
      {name}
    </Link>
  );
}

function approvalText(approval: NonNullable<PlaybookRun['approval']>): string {
  const approvers = [...approval.people, ...approval.teams.map((team) => `team ${team}`)];
  const who = `${approval.type === 'all' ? 'All of' : 'Any of'} ${approvers.join(', ') || NONE}`;
  return approval.approved_by.length === 0 ? who : `${who}; approved by ${approval.approved_by.join(', ')}`;
}

/** The run detail's header fields (spec 001 §2.5), and who may approve when the playbook asks for approval. */
export function RunHeader({ run }: { run: PlaybookRun }) {
  const playbookName = run.playbooks?.title ?? run.playbooks?.name ?? run.playbook_id;
  return (
    <dl className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-x-4 gap-y-3 rounded-md border border-gray-200 bg-white p-3">
      <div className="flex min-w-0 flex-col gap-0.5">
        <dt className="text-xs font-medium text-gray-500">Playbook</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
          <Link to={`/playbooks/${encodeURIComponent(run.playbook_id)}`} className="break-words text-blue-700 hover:underline">
            {playbookName}
          </Link>
          <RunParams parameters={run.parameters} />
        </dd>
      </div>
      <Field label="Status">
        <RunStatusBadge status={run.status} />
      </Field>
      <Field label="Started">
        <Instant at={run.start_time} />
      </Field>
      <Field label="Scheduled">
        <Instant at={run.scheduled_time} />
      </Field>
      <Field label="Duration">{runDuration(run.start_time, run.end_time) || NONE}</Field>
      <Field label="Queued">{runQueued(run)}</Field>
      <Field label="Resource">
        <RunResource run={run} />
      </Field>
      <Field label="Triggered By">{run.created_by_name ?? (run.request === null ? NONE : `Webhook ${run.request.method} ${run.request.url}`)}</Field>
      {run.approval !== null && (
        <div className="col-span-full flex min-w-0 flex-col gap-0.5">
          <dt className="text-xs font-medium text-gray-500">Approval</dt>
          <dd className="text-sm break-words text-gray-900">{approvalText(run.approval)}</dd>
        </div>
      )}
    </dl>
  );
}
