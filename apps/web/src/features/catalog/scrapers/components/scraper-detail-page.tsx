import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { ChevronRight } from 'lucide-react';
import { DetailSkeleton, DETAIL_TAB_CLASS } from '@/components/detail-page/detail-page';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { ScraperTypeIcon } from '@/components/scraper-type-icon/scraper-type-icon';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { isUiSource } from '@/lib/resource-origin/resource-origin';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDeleteScraper } from '../api/delete-scraper';
import { useScraperQuery } from '../api/get-scrapers';
import type { Scraper } from '../api/types';
import { saveProblemOf } from '../api/save-problem';
import { useSaveScraper, type ScraperInput } from '../api/save-scraper';
import { asksForFirstRun, SCRAPERS_PATH, SCRAPERS_RESOURCE } from '../scrapers-kind';
import { RunNowButton } from './run-now-button';
import { ScraperForm } from './scraper-form';
import { ScraperJobsTab } from './scraper-jobs-tab';

/** A queued run that has not finished by then is left to the tab's normal refresh. */
const RUN_WATCH_MS = 300_000;

type ScraperTab = 'spec' | 'jobHistory';

function isScraperTab(value: string): value is ScraperTab {
  return value === 'spec' || value === 'jobHistory';
}

function Breadcrumb({ name }: { name: string }) {
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-lg font-semibold text-gray-900">
        <li className="shrink-0">
          <Link to={SCRAPERS_PATH} className="text-blue-700 hover:underline">
            Scrapers
          </Link>
        </li>
        <li aria-hidden="true" className="shrink-0">
          <ChevronRight className="size-4 text-gray-400" />
        </li>
        <li className="min-w-0">
          <h1 aria-current="page" className="truncate">
            {name}
          </h1>
        </li>
      </ol>
    </nav>
  );
}

function ScraperDetail({ scraper }: { scraper: Scraper }) {
  const navigate = useNavigate();
  const { can } = usePermissions();
  const canWrite = can(SCRAPERS_RESOURCE, 'write');
  const fromUi = isUiSource(scraper.source);
  const session = useSession();
  const save = useSaveScraper();
  const remove = useDeleteScraper();
  const [tab, setTab] = useState<ScraperTab>('spec');
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const location = useLocation();
  // A new scraper's first run is awaited like a Run Now with no run before it, so the tab shows it when it ends.
  const [awaitingRunAfter, setAwaitingRunAfter] = useState<string | null | undefined>(() => (asksForFirstRun(location.state) ? null : undefined));

  useEffect(() => {
    if (awaitingRunAfter === undefined) return;
    const timer = setTimeout(() => setAwaitingRunAfter(undefined), RUN_WATCH_MS);
    return () => clearTimeout(timer);
  }, [awaitingRunAfter]);

  const handleUpdate = (input: ScraperInput) => {
    save.mutate({ id: scraper.id, input, createdBy: session.data?.person.id ?? null });
  };

  const handleDelete = () => {
    remove.mutate({ id: scraper.id, name: scraper.name }, { onSuccess: () => void navigate(SCRAPERS_PATH) });
  };

  return (
    <>
      <header className="flex flex-wrap items-center gap-2">
        <ScraperTypeIcon spec={scraper.spec} className="size-5" />
        <Breadcrumb name={scraper.name} />
        {canWrite && (
          <div className="ml-auto">
            <RunNowButton scraperId={scraper.id} name={scraper.name} onQueued={setAwaitingRunAfter} />
          </div>
        )}
      </header>
      {scraper.description && <p className="text-sm break-words text-gray-600">{scraper.description}</p>}
      <Tabs.Root value={tab} onValueChange={(value) => isScraperTab(value) && setTab(value)} className="flex min-w-0 flex-col gap-3">
        <Tabs.List aria-label="Scraper tabs" className="flex border-b border-gray-200">
          <Tabs.Trigger value="spec" className={DETAIL_TAB_CLASS}>
            Spec
          </Tabs.Trigger>
          <Tabs.Trigger value="jobHistory" className={DETAIL_TAB_CLASS}>
            Job History
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="spec" className="flex min-w-0 flex-col gap-3">
          {!fromUi && (
            <p role="note" className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm break-words text-blue-800">
              This scraper is linked to {scraper.source}: change it there. It is read-only here.
            </p>
          )}
          <ScraperForm
            scraper={scraper}
            editable={canWrite && fromUi}
            isSaving={save.isPending || remove.isPending}
            problem={save.isError ? saveProblemOf(save.error) : null}
            onSubmit={handleUpdate}
            onDelete={() => setIsConfirmingDelete(true)}
          />
        </Tabs.Content>
        <Tabs.Content value="jobHistory" className="min-w-0">
          <ScraperJobsTab scraperId={scraper.id} awaitingRunAfter={awaitingRunAfter} />
        </Tabs.Content>
      </Tabs.Root>
      <ConfirmDialog
        open={isConfirmingDelete}
        onOpenChange={setIsConfirmingDelete}
        title="Delete Scraper"
        message={`Are you sure you want to delete '${scraper.name}'? Its items stay in the catalog until retention removes them.`}
        confirmLabel="Delete"
        isPending={remove.isPending}
        onConfirm={handleDelete}
      />
    </>
  );
}

/** /catalog/scrapers/{id}: a scraper's Spec and Job History (spec 002 §2.1), with Run Now for writers. */
export function ScraperDetailPage() {
  const { id = '' } = useParams();
  const scraper = useScraperQuery(id);
  useDocumentTitle(scraper.data?.name ?? 'Scraper');

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      {scraper.isPending ? (
        <>
          <Breadcrumb name="" />
          <DetailSkeleton />
        </>
      ) : scraper.isError ? (
        <>
          <Breadcrumb name="Scraper" />
          <QueryError subject="Scraper" error={scraper.error} onRetry={() => void scraper.refetch()} />
        </>
      ) : scraper.data === null ? (
        <>
          <Breadcrumb name="Scraper" />
          <p className="py-8 text-center text-sm text-gray-500">Scraper not found</p>
        </>
      ) : (
        <ScraperDetail key={scraper.data.updated_at} scraper={scraper.data} />
      )}
    </section>
  );
}
