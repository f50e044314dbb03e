import { useMutation } from '@tanstack/react-query';
import type { TopologyComponent } from '@opsdeck/shared';
import { toastError } from '@/components/toast/toast';
import { ApiError, readBody } from '@/lib/api/api-error';
import { silentDb } from '@/lib/api/db';
import { silentFetch } from '@/lib/api/guarded-fetch';
import { downloadFile, fileNameFromDisposition } from '@/lib/download-file';

export const SNAPSHOT_ERROR_MESSAGE = 'Error downloading file';

export interface SnapshotProgress {
  received: number;
  /** From Content-Length; null when the server streams without one. */
  total: number | null;
}

export interface SnapshotRequest {
  component: Pick<TopologyComponent, 'id' | 'name' | 'path' | 'topology_id'>;
  /** One of SNAPSHOT_RANGES' `start`. */
  start: string;
  related: boolean;
  onProgress?: (progress: SnapshotProgress) => void;
}

export interface Snapshot {
  fileName: string;
  blob: Blob;
}

export function snapshotUrl(componentId: string, start: string, related: boolean): string {
  const search = new URLSearchParams({ start, related: String(related) });
  return `/api/snapshot/topology/${encodeURIComponent(componentId)}?${search.toString()}`;
}

async function readWithProgress(response: Response, onProgress: ((progress: SnapshotProgress) => void) | undefined): Promise<Blob> {
  const type = response.headers.get('content-type') ?? 'application/zip';
  if (response.body === null || onProgress === undefined) return response.blob();
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(new Uint8Array(value));
    received += value.byteLength;
    onProgress({ received, total });
  }
  return new Blob(chunks, { type });
}

/**
 * The topology's name for the fallback file name: a root component is named after its topology; below the root the
 * topology row is asked, and only when the server's header named no file.
 */
async function topologyName(component: SnapshotRequest['component']): Promise<string> {
  if (component.path === '' || component.topology_id === null) return component.name;
  const { data, error } = await silentDb.from('topologies').select('name').eq('id', component.topology_id).limit(1);
  // The zip is already here: a name lookup that fails must not lose it, so the component's own name stands in.
  return error === null ? (data[0]?.name ?? component.name) : component.name;
}

/** GET /api/snapshot/topology/{id}: the component's snapshot zip as a blob, with the file name the server gives it. */
export async function downloadSnapshot({ component, start, related, onProgress }: SnapshotRequest): Promise<Snapshot> {
  const response = await silentFetch(snapshotUrl(component.id, start, related), { headers: { Accept: 'application/zip' } });
  if (!response.ok) throw new ApiError(response.status, await readBody(response));
  const disposition = response.headers.get('content-disposition');
  const blob = await readWithProgress(response, onProgress);
  const named = fileNameFromDisposition(disposition, '');
  const fileName = named === '' ? `${await topologyName(component)}-snapshot.zip` : named;
  return { fileName, blob };
}

export function useDownloadSnapshotMutation() {
  return useMutation({
    mutationFn: downloadSnapshot,
    onSuccess: ({ blob, fileName }) => downloadFile(blob, fileName),
    // Spec 001 §8: the snapshot failure has its own message, whatever the server said.
    onError: () => toastError(SNAPSHOT_ERROR_MESSAGE),
  });
}
