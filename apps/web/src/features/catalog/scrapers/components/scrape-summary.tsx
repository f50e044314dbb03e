import type { ScrapeSummary } from '../api/types';

/** One line for the Job History table: what the run did to the items of all types, unchanged ones included. */
export function summaryLine(summary: ScrapeSummary): string {
  const totals = Object.values(summary.types).reduce(
    (sum, type) => ({
      added: sum.added + type.added,
      updated: sum.updated + type.updated,
      unchanged: sum.unchanged + type.unchanged,
      deleted: sum.deleted + type.deleted,
    }),
    { added: 0, updated: 0, unchanged: 0, deleted: 0 },
  );
  const parts = [`${totals.added} added`, `${totals.updated} updated`, `${totals.unchanged} unchanged`, `${totals.deleted} deleted`];
  if (summary.errors.length > 0) parts.push(summary.errors.length === 1 ? '1 error' : `${summary.errors.length} errors`);
  return parts.join(', ');
}

export interface ScrapeSummaryViewProps {
  summary: ScrapeSummary;
}

/** What one run did, per config type, with its changes, insights and the errors its sources reported. */
export function ScrapeSummaryView({ summary }: ScrapeSummaryViewProps) {
  const types = Object.entries(summary.types).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="flex min-w-0 flex-col gap-2 text-sm whitespace-normal text-gray-800">
      {types.length === 0 ? (
        <p className="text-gray-500">The run found no items.</p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-label="Items per type" className="min-w-full text-left text-xs">
            <thead className="text-gray-600">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Type
                </th>
                {['Added', 'Updated', 'Unchanged', 'Deleted'].map((label) => (
                  <th key={label} scope="col" className="py-1 pr-4 text-right font-medium">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {types.map(([type, counts]) => (
                <tr key={type} className="border-t border-gray-200">
                  <th scope="row" className="py-1 pr-4 font-mono font-normal break-all">
                    {type}
                  </th>
                  <td className="py-1 pr-4 text-right tabular-nums">{counts.added}</td>
                  <td className="py-1 pr-4 text-right tabular-nums">{counts.updated}</td>
                  <td className="py-1 pr-4 text-right tabular-nums">{counts.unchanged}</td>
                  <td className="py-1 pr-4 text-right tabular-nums">{counts.deleted}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="text-xs text-gray-600">
        {summary.changes === 1 ? '1 change' : `${summary.changes} changes`} recorded; insights: {summary.insights.opened} opened, {summary.insights.resolved} resolved
      </p>
      {summary.errors.length > 0 && (
        <div>
          <h3 className="text-xs font-semibold text-red-700">Errors</h3>
          <ul className="mt-1 flex flex-col gap-1">
            {summary.errors.map((error, index) => (
              <li key={`${error.where}-${index}`} className="rounded bg-red-50 px-2 py-1 text-xs break-words text-red-800">
                {error.where !== '' && <span className="font-mono">{error.where}: </span>}
                {error.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
