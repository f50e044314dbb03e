import { ExternalLink } from 'lucide-react';
import { formatRelativeTime } from '@opsdeck/shared';
import type { LinkedAlert } from '../api/types';

/** Only web links leave the console: a generatorURL is whatever the sender wrote, javascript: included. */
export function safeExternalUrl(url: string | null): string | null {
  if (url === null || url.trim() === '') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

function labelEntries(labels: LinkedAlert['labels']): Array<[string, string]> {
  if (labels === null || typeof labels !== 'object') return [];
  return Object.entries(labels)
    .filter(([key]) => key !== 'alertname')
    .map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The alert behind an `alert` evidence: its state, severity, labels and a link to where it was raised. */
export function AlertEvidence({ alert }: { alert: LinkedAlert }) {
  const firing = alert.status === 'firing';
  const href = safeExternalUrl(alert.generator_url);
  const labels = labelEntries(alert.labels);
  return (
    <div className="mt-1 flex flex-col gap-1" data-testid="alert-evidence">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className={firing ? 'rounded bg-red-50 px-1 font-medium text-red-700' : 'rounded bg-green-50 px-1 font-medium text-green-700'}>
          {firing ? 'Firing' : 'Resolved'}
        </span>
        {alert.severity !== null && <span className="rounded bg-gray-100 px-1 text-gray-700">Severity: {alert.severity}</span>}
        <span className="text-gray-500">last received {formatRelativeTime(alert.last_received_at)} ago</span>
        {href !== null && (
          <a href={href} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-blue-700 hover:underline">
            Source <ExternalLink aria-hidden="true" className="size-3" />
          </a>
        )}
      </div>
      {labels.length > 0 && (
        <ul aria-label={`Labels of ${alert.name}`} className="flex flex-wrap gap-1">
          {labels.map(([key, value]) => (
            <li key={key} className="max-w-full rounded bg-gray-100 px-1 font-mono text-xs break-all text-gray-700">
              {key}={value}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
