import { errorDetails, errorMessage } from '@/components/toast/toast';

/**
 * The explanation beyond the message: an API error's body carries it, a data API error (postgrest-js) has it as its
 * own `details` and `hint`, such as the spec path a save rule refused.
 */
function saveErrorDetails(error: unknown): string | null {
  const fromBody = errorDetails(error);
  if (fromBody !== null || typeof error !== 'object' || error === null) return fromBody;
  const parts = ['details' in error ? error.details : null, 'hint' in error ? error.hint : null].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' — ');
}

export function SaveError({ error }: { error: unknown }) {
  const details = saveErrorDetails(error);
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
      <p>{errorMessage(error)}</p>
      {details !== null && <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-red-800">{details}</p>}
    </div>
  );
}
