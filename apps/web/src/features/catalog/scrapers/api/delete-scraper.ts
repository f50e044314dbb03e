import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { SCRAPERS_TABLE } from '../scrapers-kind';
import { scraperKeys } from './keys';

export interface DeleteScraperInput {
  id: string;
  name: string;
}

/**
 * Marks the scraper deleted rather than removing its row: its items and job history keep pointing at it, and the
 * scheduler stops running it once deleted_at is set.
 */
export async function deleteScraper({ id }: DeleteScraperInput): Promise<void> {
  await silentDb.from(SCRAPERS_TABLE).update({ deleted_at: new Date().toISOString() }).eq('id', id).throwOnError();
}

export function useDeleteScraper() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScraper,
    onSuccess: async (_result, { name }) => {
      toastSuccess(`${name} deleted successfully`);
      // Only the list: the open detail page is left for the list, not refetched into a 'not found'.
      await queryClient.invalidateQueries({ queryKey: scraperKeys.list() });
    },
    onError: toastError,
  });
}
