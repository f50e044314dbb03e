import type { ColumnDef } from '@tanstack/react-table';
import { formatDate } from '@opsdeck/shared';
import { JobDetailsJson } from '@/components/job-status/job-status-cell';
import { resourceColumns } from '@/components/resource-columns/resource-columns';
import { ScraperTypeIcon } from '@/components/scraper-type-icon/scraper-type-icon';
import { TagsCell } from '@/lib/settings-resources/components/tags-cell';
import { scrapeSummaryOf, type ScraperRow } from '../api/types';
import { ScrapeSummaryView } from './scrape-summary';

/** The run's scrape summary as a table when it left one (spec 002 §2.2), its raw details otherwise. */
function ScrapeDetails({ details }: { details: unknown }) {
  const summary = scrapeSummaryOf(details);
  return summary === null ? <JobDetailsJson details={details} /> : <ScrapeSummaryView summary={summary} />;
}

const columns = resourceColumns<ScraperRow>({
  nameIcon: (row) => <ScraperTypeIcon spec={row.spec} />,
  renderJobDetails: (details) => <ScrapeDetails details={details} />,
});

/** The list's columns (issue #12 item 6, #34 item 24): the generic list of spec 002 §2.2 without Namespace. */
export const SCRAPER_COLUMNS: ColumnDef<ScraperRow>[] = [
  columns.name,
  columns.source,
  columns.schedule,
  columns.job_status,
  columns.last_runtime,
  columns.job_last_failed,
  { id: 'tags', header: 'Tags', size: 200, cell: ({ row }) => <TagsCell labels={row.original.labels} /> },
  columns.created_at,
  { id: 'updated_at', header: 'Updated', size: 140, cell: ({ row }) => formatDate(row.original.updated_at) },
  columns.created_by,
];
