import { useMemo } from 'react';
import { clsx } from 'clsx';
import { parseUnifiedDiff, type DiffLineKind } from './parse-unified-diff';

export interface DiffViewProps {
  /** Unified diff text. */
  diff: string;
  /** Accessible name of the table. */
  label?: string;
  emptyText?: string;
  className?: string;
}

const ROW_CLASSES: Record<DiffLineKind, string> = {
  file: 'bg-gray-50 font-semibold text-gray-700',
  hunk: 'bg-blue-50 text-blue-800',
  added: 'bg-green-50 text-green-900',
  removed: 'bg-red-50 text-red-900',
  context: 'text-gray-800',
  note: 'text-gray-500 italic',
};

const GUTTER_CLASSES: Record<DiffLineKind, string> = {
  file: 'bg-gray-50',
  hunk: 'bg-blue-100/60',
  added: 'bg-green-100 text-green-800',
  removed: 'bg-red-100 text-red-800',
  context: 'bg-gray-50',
  note: 'bg-gray-50',
};

/** A unified diff with old and new line numbers, added lines green, removed lines red and hunk headers blue. */
export function DiffView({ diff, label = 'Diff', emptyText = 'No diff', className }: DiffViewProps) {
  const lines = useMemo(() => parseUnifiedDiff(diff), [diff]);
  if (lines.length === 0) return <p className="text-sm text-gray-500">{emptyText}</p>;
  return (
    <div className={clsx('overflow-auto rounded-md border border-gray-200 bg-white', className)}>
      <table aria-label={label} className="w-full border-collapse font-mono text-xs leading-5">
        <thead className="sr-only">
          <tr>
            <th scope="col">Old line</th>
            <th scope="col">New line</th>
            <th scope="col">Line</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={index} data-kind={line.kind} className={ROW_CLASSES[line.kind]}>
              <td className={clsx('w-10 border-r border-gray-200 px-2 text-right text-gray-500 select-none', GUTTER_CLASSES[line.kind])}>
                {line.oldNumber ?? ''}
              </td>
              <td className={clsx('w-10 border-r border-gray-200 px-2 text-right text-gray-500 select-none', GUTTER_CLASSES[line.kind])}>
                {line.newNumber ?? ''}
              </td>
              <td className="px-2 whitespace-pre">{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
