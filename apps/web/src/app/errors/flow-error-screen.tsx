import { Link, Navigate, useParams } from 'react-router';
import { LoaderCircle } from 'lucide-react';
import { isApiError } from '@/lib/api/api-error';
import { useFlowError } from '@/features/auth/api/get-flow-error';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Statuses meaning the error is gone or not ours to see; the user just starts over at home. */
const GONE_STATUSES: ReadonlySet<number> = new Set([403, 404, 410]);

function FlowError({ id }: { id: string }) {
  const query = useFlowError(id);
  if (query.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 text-sm text-gray-500">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        Loading…
      </div>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && GONE_STATUSES.has(query.error.status)) return <Navigate to="/" replace />;
    throw query.error;
  }
  return (
    <div className="w-full max-w-2xl space-y-4">
      <h1 className="text-lg font-semibold text-gray-900">An error occurred</h1>
      <pre className="max-h-96 overflow-auto rounded-md border border-gray-200 bg-white p-4 text-xs text-gray-800">{JSON.stringify(query.data, null, 2)}</pre>
      <Link to="/" className="inline-block text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
        Go back
      </Link>
    </div>
  );
}

/** `/error/:id`: an identity flow error, fetched by id from the identity service. */
export function FlowErrorScreen() {
  useDocumentTitle('Error');
  const { id = '' } = useParams();
  return (
    <main className="flex min-h-full items-center justify-center bg-gray-50 p-8">
      <title>Error | Opsdeck</title>
      <FlowError id={id} />
    </main>
  );
}
