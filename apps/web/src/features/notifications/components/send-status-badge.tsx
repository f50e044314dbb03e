import { clsx } from 'clsx';
import type { SendStatus } from '../api/types';

const STATUS_CLASSES: Record<SendStatus, string> = {
  pending: 'bg-gray-100 text-gray-700 ring-gray-300',
  sending: 'bg-blue-50 text-blue-700 ring-blue-200',
  sent: 'bg-green-50 text-green-700 ring-green-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  skipped: 'bg-amber-50 text-amber-800 ring-amber-200',
};

const STATUS_LABELS: Record<SendStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** The colour helps scanning; the word carries the status for everyone. */
export function SendStatusBadge({ status }: { status: SendStatus }) {
  return (
    <span data-status={status} className={clsx('inline-flex rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_CLASSES[status])}>
      {STATUS_LABELS[status]}
    </span>
  );
}
