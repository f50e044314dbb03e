import { useState, type ReactNode } from 'react';
import { clsx } from 'clsx';
import { Dialog } from '@/components/dialog/dialog';

/** Spec 001 §4: job statuses are colour coded. */
const JOB_STATUS_CLASSES: Readonly<Record<string, string>> = {
  RUNNING: 'text-blue-700',
  SUCCESS: 'text-green-700',
  WARNING: 'text-amber-700',
  FAILED: 'text-red-700',
  STOPPED: 'text-gray-600',
};

export function JobStatusText({ status }: { status: string }) {
  return <span className={clsx('text-xs font-medium', JOB_STATUS_CLASSES[status] ?? 'text-gray-700')}>{status}</span>;
}

/** A job's details as they were stored, for jobs whose details have no richer view. */
export function JobDetailsJson({ details }: { details: unknown }) {
  return <pre className="overflow-auto font-mono text-xs whitespace-pre-wrap text-gray-800">{JSON.stringify(details, null, 2)}</pre>;
}

function hasDetails(details: unknown): boolean {
  if (details === null || details === undefined) return false;
  return typeof details !== 'object' || Object.keys(details).length > 0;
}

export interface JobStatusCellProps {
  resourceName: string;
  status: string | null | undefined;
  details: unknown;
  /** What the details dialog shows; the raw details when not given. */
  renderDetails?: (details: unknown) => ReactNode;
}

/** The latest job's status and a '(View details)' link when the job left details (spec 002 §2.2). */
export function JobStatusCell({ resourceName, status, details, renderDetails }: JobStatusCellProps) {
  const [isOpen, setIsOpen] = useState(false);
  if (!status) return null;
  return (
    <span className="inline-flex items-center gap-1">
      <JobStatusText status={status} />
      {hasDetails(details) && (
        <button
          type="button"
          onClick={(event) => {
            event.stopPropagation();
            setIsOpen(true);
          }}
          onKeyDown={(event) => event.stopPropagation()}
          className="text-xs text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          (View details)
        </button>
      )}
      {isOpen && (
        <Dialog open onOpenChange={setIsOpen} title={`Job details for ${resourceName}`} size="medium">
          {renderDetails ? renderDetails(details) : <JobDetailsJson details={details} />}
        </Dialog>
      )}
    </span>
  );
}
