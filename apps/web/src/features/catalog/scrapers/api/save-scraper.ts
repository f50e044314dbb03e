import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { SCRAPERS_TABLE } from '../scrapers-kind';
import { scraperKeys } from './keys';

export interface ScraperInput {
  name: string;
  spec: Record<string, unknown>;
}

export interface SaveScraperInput {
  /** The scraper being edited; without one a scraper is created. */
  id: string | null;
  input: ScraperInput;
  createdBy: string | null;
}

/** Writes the scraper through the data API, where the server checks the spec; answers the scraper's id. */
export async function saveScraper({ id, input, createdBy }: SaveScraperInput): Promise<string> {
  // Spec 002 §7: both create and update send the current user as created_by.
  const body = { ...input, created_by: createdBy };
  if (id === null) {
    const { data } = await silentDb.from(SCRAPERS_TABLE).insert(body).select('id').single().throwOnError();
    const created: { id: string } = data;
    return created.id;
  }
  await silentDb.from(SCRAPERS_TABLE).update(body).eq('id', id).throwOnError();
  return id;
}

/** Failures are not toasted here: the form shows them beside the editor, where the text that caused them still is. */
export function useSaveScraper() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveScraper,
    onSuccess: async (_id, { id, input }) => {
      toastSuccess(`${input.name} ${id === null ? 'created' : 'updated'} successfully`);
      await queryClient.invalidateQueries({ queryKey: scraperKeys.all });
    },
  });
}
