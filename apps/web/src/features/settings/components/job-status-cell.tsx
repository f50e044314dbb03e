import { useState } from 'react';
import { clsx } from 'clsx';
import { Dialog } from '@/components/dialog/dialog';

const STATUS_CLASSES: Record<string, string> = {
  RUNNING: 'text-blue-700',
  SUCCESS: 'text-green-700',
  WARNING: 'text-amber-700',
  FAILED: 'text-red-700',
  STOPPED: 'text-gray-600',
};

export interface JobStatusCellProps {
  resourceName: string;
  status: string | null | undefined;
  details: unknown;
}

function hasDetails(details: unknown): boolean {
  if (details === null || details === undefined) return false;
  if (typeof details === 'object') return Object.keys(details).length > 0;
  return true;
}

/** The latest job's status (colour coded, spec 001 §4) and a '(View details)' link when the job left details. */
export function JobStatusCell({ resourceName, status, details }: JobStatusCellProps) {
  const [isOpen, setIsOpen] = useState(false);
  if (!status) return null;
  return (
    <span className="inline-flex items-center gap-1">
      <span className={clsx('text-xs font-medium', STATUS_CLASSES[status] ?? 'text-gray-700')}>{status}</span>
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
          <pre className="overflow-auto font-mono text-xs whitespace-pre-wrap text-gray-800">{JSON.stringify(details, null, 2)}</pre>
        </Dialog>
      )}
    </span>
  );
}
