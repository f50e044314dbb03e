import { Dialog } from '@/components/dialog/dialog';
import { JobDetailsJson } from '@/components/job-status/job-status-cell';
import { hasJobDetailContent, jobDetail, jobErrors } from './job-details';
import type { JobHistoryEntry } from './job-history-entry';

export interface JobDetailsDialogProps {
  entry: JobHistoryEntry;
  onClose: () => void;
}

/** A run's errors, scrape summary and summary (spec 001 §2.7); the tables open it only for runs that have one of them. */
export function JobDetailsDialog({ entry, onClose }: JobDetailsDialogProps) {
  const errors = jobErrors(entry.details);
  const scrapeSummary = jobDetail(entry.details, 'scrape_summary');
  const summary = jobDetail(entry.details, 'summary');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`${entry.name}${entry.resource_name ? ` – ${entry.resource_name}` : ''}`} size="medium">
      <div className="flex flex-col gap-4">
        {errors.length > 0 && (
          <section aria-label="Errors" className="flex flex-col gap-1">
            <h3 className="text-sm font-semibold text-gray-900">Errors</h3>
            <ul className="flex list-disc flex-col gap-1 pl-5 text-sm break-words text-red-700">
              {errors.map((error, index) => (
                <li key={index}>{error}</li>
              ))}
            </ul>
          </section>
        )}
        {hasJobDetailContent(scrapeSummary) && (
          <section aria-label="Scrape summary" className="flex flex-col gap-1">
            <h3 className="text-sm font-semibold text-gray-900">Scrape summary</h3>
            <JobDetailsJson details={scrapeSummary} />
          </section>
        )}
        {hasJobDetailContent(summary) && (
          <section aria-label="Summary" className="flex flex-col gap-1">
            <h3 className="text-sm font-semibold text-gray-900">Summary</h3>
            <JobDetailsJson details={summary} />
          </section>
        )}
      </div>
    </Dialog>
  );
}
