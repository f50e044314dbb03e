import { useMutation } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';

export interface RunScraperInput {
  id: string;
  name: string;
}

/** Run Now: the server queues the run and answers 202 at once; the run itself shows up in job history. */
export async function runScraper({ id }: RunScraperInput): Promise<void> {
  await requestJson<unknown>(`/api/config/scrapers/${encodeURIComponent(id)}/run`, { method: 'POST', silent: true });
}

export function useRunScraper() {
  return useMutation({
    mutationFn: runScraper,
    onSuccess: (_result, { name }) => toastSuccess(`${name} run started`),
    onError: toastError,
  });
}
