import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Plus, RefreshCw } from 'lucide-react';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { Dialog } from '@/components/dialog/dialog';
import { CreatorsContext } from '@/components/resource-columns/resource-columns';
import { QueryError } from '@/components/status/query-error';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CatalogTabs } from '../../components/catalog-tabs';
import { useScrapersQuery } from '../api/get-scrapers';
import { saveProblemOf } from '../api/save-problem';
import { useSaveScraper, type ScraperInput } from '../api/save-scraper';
import { FIRST_RUN_STATE, SCRAPERS_RESOURCE, SCRAPERS_TITLE, scraperPath } from '../scrapers-kind';
import { SCRAPER_COLUMNS } from './scraper-columns';
import { ScraperForm } from './scraper-form';

export const NO_SCRAPERS_MESSAGE = 'No scrapers yet';

/** Narrow screens keep the name and the job status in view. */
const LAYOUT = {
  grow: 'name',
  hideBelow: { source: 640, schedule: 760, created_by: 760, tags: 900, last_runtime: 900, job_last_failed: 900, created_at: 1100, updated_at: 1100 },
};

/** /catalog/scrapers: the scrapers with their latest run (spec 002 §2.1), and 'Add Scraper' for writers. */
export function ScrapersPage() {
  useDocumentTitle(SCRAPERS_TITLE);
  const navigate = useNavigate();
  const scrapers = useScrapersQuery();
  const rows = useMemo(() => scrapers.data ?? [], [scrapers.data]);
  const creatorIds = useMemo(() => [...new Set(rows.map((row) => row.created_by).filter((id): id is string => id !== null))].sort(), [rows]);
  const people = usePeopleByIdsQuery(creatorIds);
  const creators = useMemo(() => new Map((people.data ?? []).map((person) => [person.id, person])), [people.data]);
  const { can } = usePermissions();
  const canWrite = can(SCRAPERS_RESOURCE, 'write');
  const session = useSession();
  const save = useSaveScraper();
  const [isAdding, setIsAdding] = useState(false);

  const openAdd = () => {
    save.reset();
    setIsAdding(true);
  };

  const handleCreate = (input: ScraperInput) => {
    save.mutate({ id: null, input, createdBy: session.data?.person.id ?? null }, { onSuccess: (id) => void navigate(scraperPath(id), { state: FIRST_RUN_STATE }) });
  };

  const empty = (
    <span className="flex flex-col items-center gap-2">
      <span>{NO_SCRAPERS_MESSAGE}</span>
      {canWrite && (
        <Button variant="secondary" onClick={openAdd}>
          <Plus aria-hidden="true" className="size-4" />
          Add your first scraper
        </Button>
      )}
    </span>
  );

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <CatalogTabs />
      <header className="flex flex-wrap items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Scrapers</h1>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void scrapers.refetch()} disabled={scrapers.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {canWrite && (
          <Button variant="primary" className="ml-auto" onClick={openAdd}>
            <Plus aria-hidden="true" className="size-4" />
            Add Scraper
          </Button>
        )}
      </header>
      {scrapers.isError ? (
        <QueryError subject="Scrapers" error={scrapers.error} onRetry={() => void scrapers.refetch()} />
      ) : (
        <CreatorsContext value={creators}>
          <DataTable
            label="Scrapers"
            columns={SCRAPER_COLUMNS}
            data={rows}
            isLoading={scrapers.isPending}
            emptyText={empty}
            getRowId={(row) => row.id}
            onRowClick={(row) => void navigate(scraperPath(row.id))}
            preferenceKey="catalog-scrapers"
            layout={LAYOUT}
          />
        </CreatorsContext>
      )}
      {isAdding && (
        <Dialog open onOpenChange={setIsAdding} title="Add Scraper" size="large">
          <ScraperForm
            editable
            isSaving={save.isPending}
            problem={save.isError ? saveProblemOf(save.error) : null}
            onSubmit={handleCreate}
            onCancel={() => setIsAdding(false)}
          />
        </Dialog>
      )}
    </section>
  );
}
