/**
 * The file name a Content-Disposition header gives, preferring the RFC 6266 `filename*=UTF-8''…` form (which may hold
 * any character) over the plain `filename=` one; `fallback` when the header names none or its encoding is broken.
 */
export function fileNameFromDisposition(disposition: string | null, fallback: string): string {
  if (disposition === null) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8)?'[^']*'([^;]+)/i.exec(disposition);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return fallback;
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name === undefined || name === '' ? fallback : name;
}

/** Saves `blob` as `fileName` through the browser's download, as a link the user clicked would. */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked only after the click's task: some browsers start reading the object URL asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
