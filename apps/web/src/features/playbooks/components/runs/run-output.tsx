import { useRef, type ReactNode } from 'react';
import { formatDate, type PlaybookActionResult } from '@opsdeck/shared';
import { RunStatusBadge } from './run-status-badge';
import { runDuration } from './run-times';
import type { RunStep } from './run-steps';
import { useScrollRegion } from '@/lib/use-scroll-region';
import { ArtifactList } from '@/components/artifact-list/artifact-list';

const PRE_CLASS = 'palette-light max-h-[60vh] overflow-auto rounded bg-gray-950 p-3 font-mono text-xs leading-5 break-words whitespace-pre-wrap text-gray-100';

function OutputBlock({ title, children, tone = 'plain' }: { title: string; children: ReactNode; tone?: 'plain' | 'error' }) {
  const box = useRef<HTMLPreElement>(null);
  // Long output scrolls inside its box, which the keyboard must then reach (#36); the section already names it.
  const { tabIndex } = useScrollRegion(box, title);
  return (
    <section aria-label={title} className="flex min-w-0 flex-col gap-1">
      <h3 className="text-xs font-semibold text-gray-500 uppercase">{title}</h3>
      {tone === 'error' ? (
        <pre ref={box} tabIndex={tabIndex} className="overflow-auto rounded border border-red-200 bg-red-50 p-3 font-mono text-xs break-words whitespace-pre-wrap text-red-800">
          {children}
        </pre>
      ) : (
        <pre ref={box} tabIndex={tabIndex} className={PRE_CLASS}>
          {children}
        </pre>
      )}
    </section>
  );
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** An sql action's rows as a small table, columns in the order the first rows name them. */
function RowsTable({ rows }: { rows: readonly Record<string, unknown>[] }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <section aria-label="Rows" className="flex min-w-0 flex-col gap-1">
      <h3 className="text-xs font-semibold text-gray-500 uppercase">Rows</h3>
      <div className="max-h-[50vh] overflow-auto rounded border border-gray-200">
        <table aria-label="Rows" className="min-w-full border-collapse font-mono text-xs">
          <thead className="sticky top-0 bg-gray-50">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="border-b border-gray-200 px-2 py-1 text-left font-semibold text-gray-600">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index} className="border-b border-gray-100 last:border-0">
                {columns.map((column) => (
                  <td key={column} className="px-2 py-1 align-top whitespace-pre-wrap text-gray-800">
                    {cellText(row[column])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function hasText(text: string | undefined): text is string {
  return text !== undefined && text !== '';
}

/** True when a result holds nothing to show. */
export function isEmptyResult(result: PlaybookActionResult | null): boolean {
  if (result === null) return true;
  return (
    !hasText(result.stdout) &&
    !hasText(result.stderr) &&
    !hasText(result.logs) &&
    !hasText(result.body) &&
    result.exitCode === undefined &&
    result.status === undefined &&
    (result.rows === undefined || result.rows.length === 0) &&
    result.rowCount === undefined &&
    (result.artifactNotes === undefined || result.artifactNotes.length === 0)
  );
}

function ResultView({ result }: { result: PlaybookActionResult }) {
  const facts = [
    result.exitCode === undefined ? null : `Exit code ${result.exitCode}`,
    result.status === undefined ? null : `HTTP status ${result.status}`,
    result.rowCount === undefined ? null : `${result.rowCount} ${result.rowCount === 1 ? 'row' : 'rows'}`,
  ].filter((fact): fact is string => fact !== null);
  return (
    <>
      {facts.length > 0 && <p className="text-sm text-gray-700">{facts.join(' · ')}</p>}
      {hasText(result.stdout) && <OutputBlock title="stdout">{result.stdout}</OutputBlock>}
      {hasText(result.stderr) && <OutputBlock title="stderr">{result.stderr}</OutputBlock>}
      {hasText(result.logs) && <OutputBlock title="Logs">{result.logs}</OutputBlock>}
      {hasText(result.body) && <OutputBlock title="Body">{result.body}</OutputBlock>}
      {result.rows !== undefined && result.rows.length > 0 && <RowsTable rows={result.rows} />}
      {result.truncated && <p className="text-xs text-amber-700">The output was cut at the size limit.</p>}
    </>
  );
}

/** The log output pane: the selected step's error and output, or 'No result' (spec 001 §2.5). */
export function RunOutput({ step }: { step: RunStep | null }) {
  if (step === null) return <p className="p-4 text-sm text-gray-500">No result</p>;
  const empty = isEmptyResult(step.result) && !step.error && step.artifacts.length === 0;
  return (
    <section aria-label={`Output of ${step.name}`} className="flex min-w-0 flex-col gap-3 p-3">
      <header className="flex flex-wrap items-center gap-2">
        <h2 className="min-w-0 truncate text-sm font-semibold text-gray-900">{step.name}</h2>
        <RunStatusBadge status={step.status} />
        {step.start_time !== null && (
          <span className="text-xs text-gray-500">
            <time dateTime={step.start_time}>{formatDate(step.start_time, 'datetime-seconds')}</time>
            {step.end_time !== null && ` · ${runDuration(step.start_time, step.end_time)}`}
          </span>
        )}
      </header>
      {step.error && (
        <OutputBlock title="Error" tone="error">
          {step.error}
        </OutputBlock>
      )}
      {step.result !== null && <ResultView result={step.result} />}
      <ArtifactList artifacts={step.artifacts} notes={step.result?.artifactNotes} hrefOf={(id) => `/api/playbook/run/artifacts/${id}`} />
      {empty && <p className="text-sm text-gray-500">No result</p>}
    </section>
  );
}
