import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { hasJobDetails } from '@/lib/job-history/job-details';
import { JobDetailsDialog } from '@/lib/job-history/job-details-dialog';
import { jobNameColumn, jobRunColumns } from '@/lib/job-history/job-history-columns';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { useJobHistoryQuery } from '../api/get-job-history';

const columns: ColumnDef<JobHistoryEntry>[] = [jobNameColumn, ...jobRunColumns];

export interface JobHistoryTabProps {
  resourceId: string;
}

export function JobHistoryTab({ resourceId }: JobHistoryTabProps) {
  const history = useJobHistoryQuery(resourceId);
  const [selected, setSelected] = useState<JobHistoryEntry | null>(null);
  if (history.isError) {
    return <QueryError subject="Job history" error={history.error} onRetry={() => void history.refetch()} />;
  }
  return (
    <>
      <DataTable
        label="Job history"
        columns={columns}
        data={history.data ?? []}
        isLoading={history.isPending}
        emptyText="No job history found"
        getRowId={(entry) => entry.id}
        onRowClick={setSelected}
        // Spec 001 §2.7: a run without errors, scrape summary or summary has nothing for the modal to show.
        isRowClickable={(entry) => hasJobDetails(entry.details)}
      />
      {selected && <JobDetailsDialog entry={selected} onClose={() => setSelected(null)} />}
    </>
  );
}
