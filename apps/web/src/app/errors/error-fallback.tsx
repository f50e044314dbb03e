import { RotateCw, TriangleAlert } from 'lucide-react';

export interface ErrorFallbackProps {
  error: unknown;
}

function describe(error: unknown): string | null {
  if (error instanceof Error && error.message !== '') return error.message;
  return null;
}

/** What a render error leaves on screen: an apology, the message, and a way to start over. */
export function ErrorFallback({ error }: ErrorFallbackProps) {
  const message = describe(error);
  return (
    <div role="alert" className="flex min-h-full items-center justify-center p-8">
      <div className="flex max-w-lg flex-col items-center gap-3 text-center">
        <TriangleAlert aria-hidden="true" className="size-10 text-red-500" />
        <h1 className="text-lg font-semibold text-gray-900">Sorry.. there was an error</h1>
        {message !== null && <p className="text-sm break-words text-gray-600">{message}</p>}
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-2 inline-flex items-center gap-2 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <RotateCw aria-hidden="true" className="size-4" />
          Reload
        </button>
      </div>
    </div>
  );
}
