import { useMutation } from '@tanstack/react-query';
import { toastError } from '@/components/toast/toast';
import { ApiError, readBody } from '@/lib/api/api-error';
import { silentFetch } from '@/lib/api/guarded-fetch';
import { downloadFile, fileNameFromDisposition } from '@/lib/download-file';

export interface Postmortem {
  fileName: string;
  markdown: Blob;
}

export async function getPostmortem(incidentId: string, displayId: string): Promise<Postmortem> {
  const response = await silentFetch(`/api/incidents/${encodeURIComponent(incidentId)}/postmortem`, { headers: { Accept: 'text/markdown' } });
  if (!response.ok) throw new ApiError(response.status, await readBody(response));
  return { fileName: fileNameFromDisposition(response.headers.get('content-disposition'), `${displayId}-postmortem.md`), markdown: await response.blob() };
}

/** 'Export': downloads the Markdown postmortem. */
export function useExportPostmortem() {
  return useMutation({
    mutationFn: ({ incidentId, displayId }: { incidentId: string; displayId: string }) => getPostmortem(incidentId, displayId),
    onSuccess: ({ fileName, markdown }) => downloadFile(markdown, fileName),
    onError: toastError,
  });
}
