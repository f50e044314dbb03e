import { Button } from '@/components/button/button';
import { errorExplanation, errorMessage } from '@/components/toast/toast';

export interface QueryErrorProps {
  error: unknown;
  /** What could not be loaded ("Connections"), said before the server's message; without it the message stands alone. */
  subject?: string;
  /** Offers "Try again" when given, typically the query's refetch. */
  onRetry?: () => void;
}

/**
 * A query that failed: the server's message, then its details and hint on their own lines so that a long
 * explanation (a field path, a limit) stays readable, and a way to ask again.
 */
export function QueryError({ error, subject, onRetry }: QueryErrorProps) {
  const message = errorMessage(error);
  const { details, hint } = errorExplanation(error);
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-700">
      <p>{subject === undefined ? message : `${subject} could not be loaded: ${message}`}</p>
      {details !== null && <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-red-800">{details}</p>}
      {hint !== null && <p className="mt-1 text-xs text-red-800">{hint}</p>}
      {onRetry !== undefined && (
        <Button variant="secondary" className="mt-2" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
