import { useMutation } from '@tanstack/react-query';
import { toastError } from '@/components/toast/toast';
import { ApiError, readBody } from '@/lib/api/api-error';
import { silentFetch } from '@/lib/api/guarded-fetch';

export interface Postmortem {
  fileName: string;
  markdown: Blob;
}

function fileNameFrom(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename="?([^";]+)"?/);
  return match?.[1] ?? fallback;
}

export async function getPostmortem(incidentId: string, displayId: string): Promise<Postmortem> {
  const response = await silentFetch(`/api/incidents/${encodeURIComponent(incidentId)}/postmortem`, { headers: { Accept: 'text/markdown' } });
  if (!response.ok) throw new ApiError(response.status, await readBody(response));
  return { fileName: fileNameFrom(response.headers.get('content-disposition'), `${displayId}-postmortem.md`), markdown: await response.blob() };
}

function download({ fileName, markdown }: Postmortem): void {
  const url = URL.createObjectURL(markdown);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has taken the file once click() returns; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** 'Export': downloads the Markdown postmortem. */
export function useExportPostmortem() {
  return useMutation({
    mutationFn: ({ incidentId, displayId }: { incidentId: string; displayId: string }) => getPostmortem(incidentId, displayId),
    onSuccess: download,
    onError: toastError,
  });
}
