import { ShieldAlert } from 'lucide-react';
import { useDocumentTitle } from '@/lib/use-document-title';

export function UnauthorizedPanel() {
  useDocumentTitle('Unauthorized');
  return (
    <section role="alert" className="mx-auto mt-16 flex max-w-md flex-col items-center gap-3 rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
      <ShieldAlert aria-hidden="true" className="size-10 text-amber-500" />
      <h1 className="text-lg font-semibold text-gray-900">Unauthorized</h1>
      <p className="text-sm text-gray-600">You do not have permission to access this page</p>
    </section>
  );
}
