import { useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { Button } from '@/components/button/button';
import { getScraperJobs } from '../api/get-scraper-jobs';
import { scraperKeys } from '../api/keys';
import { useRunScraper } from '../api/run-scraper';
import type { ScraperJob } from '../api/types';

export interface RunNowButtonProps {
  scraperId: string;
  name: string;
  /** Told the newest job id before the run (null for none), once the server has queued it. */
  onQueued: (baseline: string | null) => void;
}

/** Queues a run at once, outside the scraper's schedule (write permission on config_scrapers). */
export function RunNowButton({ scraperId, name, onQueued }: RunNowButtonProps) {
  const queryClient = useQueryClient();
  const run = useRunScraper();
  const handleClick = async () => {
    // The newest run before this one, so the Job History tab can tell when the new one has shown up and finished.
    const before = await queryClient
      .fetchQuery({ queryKey: scraperKeys.jobs(scraperId), queryFn: ({ signal }) => getScraperJobs(scraperId, signal) })
      // The history failing to load (already toasted) is no reason to refuse the run; the tab then simply refreshes.
      .catch((): ScraperJob[] => []);
    run.mutate(
      { id: scraperId, name },
      {
        onSuccess: () => {
          onQueued(before[0]?.id ?? null);
          void queryClient.invalidateQueries({ queryKey: scraperKeys.jobs(scraperId) });
        },
      },
    );
  };
  return (
    <Button variant="secondary" onClick={() => void handleClick()} isPending={run.isPending}>
      <Play aria-hidden="true" className="size-4" />
      Run Now
    </Button>
  );
}
