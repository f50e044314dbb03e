import { useState } from 'react';
import { Tooltip } from 'radix-ui';
import { Dialog } from '@/components/dialog/dialog';
import { jobErrors, mostCommonError } from './job-details';
import type { JobHistoryEntry } from './job-history-entry';

/** Spec 001 §2.7: the failed count, with the run's most common error in a tooltip and, on a click, in a modal. */
export function FailedCountCell({ entry }: { entry: JobHistoryEntry }) {
  const [isOpen, setIsOpen] = useState(false);
  const count = entry.error_count ?? 0;
  const error = mostCommonError(jobErrors(entry.details));
  if (error === null) return <span className={count > 0 ? 'text-red-700' : undefined}>{count}</span>;
  return (
    <>
      <Tooltip.Provider delayDuration={200}>
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <button
              type="button"
              aria-label={`${count} failed: ${error}`}
              onClick={(event) => {
                // The row opens the run's details; this opens the error alone.
                event.stopPropagation();
                setIsOpen(true);
              }}
              onKeyDown={(event) => event.stopPropagation()}
              className="text-red-700 underline decoration-dotted underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              {count}
            </button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content side="top" sideOffset={6} className="z-50 max-w-xs rounded bg-gray-900 px-2 py-1 text-xs break-words text-white shadow">
              {error}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      </Tooltip.Provider>
      {isOpen && (
        <Dialog open onOpenChange={setIsOpen} title={`Most common error for ${entry.name}`} size="small">
          <p className="text-sm break-words whitespace-pre-wrap text-red-700">{error}</p>
        </Dialog>
      )}
    </>
  );
}
