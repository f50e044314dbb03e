import { Link } from 'react-router';
import { Compass } from 'lucide-react';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="flex min-h-full items-center justify-center p-8">
      <title>Page not found | Opsdeck</title>
      <div className="flex flex-col items-center gap-3 text-center">
        <Compass aria-hidden="true" className="size-10 text-gray-400" />
        <h1 className="text-lg font-semibold text-gray-900">Page not found</h1>
        <p className="text-sm text-gray-600">There is nothing at this address.</p>
        <Link to="/" className="text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
          Go back
        </Link>
      </div>
    </section>
  );
}
