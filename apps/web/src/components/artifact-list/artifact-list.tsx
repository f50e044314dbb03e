import { FileDown } from 'lucide-react';
import { formatBytes, type ArtifactInfo } from '@opsdeck/shared';

export interface ArtifactListProps {
  artifacts: readonly ArtifactInfo[];
  /** Where each file downloads from (a route of the run or the check that kept it). */
  hrefOf: (id: string) => string;
  /** What was not kept and why, as the server said it. */
  notes?: readonly string[];
}

/**
 * The files an exec check or playbook action kept, each a download link (the server sends them as attachments, never
 * to be shown in the page), and the files that were not kept with the reason.
 */
export function ArtifactList({ artifacts, hrefOf, notes = [] }: ArtifactListProps) {
  if (artifacts.length === 0 && notes.length === 0) return null;
  return (
    <section aria-label="Artifacts" className="flex min-w-0 flex-col gap-1">
      <h3 className="text-xs font-semibold text-gray-500 uppercase">Artifacts</h3>
      {artifacts.length === 0 ? (
        <p className="text-sm text-gray-600">No file was kept.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {artifacts.map((artifact) => (
            <li key={artifact.id} className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
              <a
                href={hrefOf(artifact.id)}
                download={artifact.filename}
                className="inline-flex min-w-0 items-center gap-1 font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
              >
                <FileDown aria-hidden="true" className="size-4 shrink-0" />
                <span className="truncate">{artifact.filename}</span>
              </a>
              <span className="text-xs text-gray-600">{formatBytes(artifact.size)}</span>
              {artifact.path !== artifact.filename && (
                <span className="min-w-0 truncate font-mono text-xs text-gray-600" title={artifact.path}>
                  {artifact.path}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <ul aria-label="Files not kept" className="flex flex-col gap-0.5 text-xs text-amber-800">
          {notes.map((note) => (
            <li key={note} className="break-words">
              {note}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
