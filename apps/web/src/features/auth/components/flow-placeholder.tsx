import { LoaderCircle } from 'lucide-react';
import { QueryError } from '@/components/status/query-error';

export interface FlowPlaceholderProps {
  /** What the page loads, for the failure message: 'The sign-in form'. */
  subject: string;
  error: Error | null;
  onRetry(): void;
}

/** What a flow page shows before it holds a flow: a spinner, or the failure with a way to start over. */
export function FlowPlaceholder({ subject, error, onRetry }: FlowPlaceholderProps) {
  if (error !== null) return <QueryError subject={subject} error={error} onRetry={onRetry} />;
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-6 text-sm text-gray-500">
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      Loading…
    </div>
  );
}
