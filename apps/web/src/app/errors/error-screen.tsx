import { Link, useSearchParams } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import { OrganizationSwitcher } from '@/features/organizations/components/organization-switcher';
import { UserMenu } from '../shell/user-menu';
import { useDocumentTitle } from '@/lib/use-document-title';

export const BAD_SESSION_MESSAGE =
  'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';

/** `/error`: where the identity layer sends the user with an `error_code`. */
export function ErrorScreen() {
  useDocumentTitle('Error');
  const [searchParams] = useSearchParams();
  const message = searchParams.get('error_code') === 'BAD_SESSION' ? BAD_SESSION_MESSAGE : 'Unknown error';
  return (
    <div className="flex min-h-full flex-col bg-gray-50">
      <title>Error | Opsdeck</title>
      {/* The organization switcher shows only for a hosted-mode session with several organizations. */}
      <header className="flex h-14 items-center justify-end gap-3 border-b border-gray-200 bg-white px-4">
        <OrganizationSwitcher />
        <UserMenu />
      </header>
      <main className="flex flex-1 items-center justify-center p-8">
        <div role="alert" className="flex max-w-md flex-col items-center gap-3 text-center">
          <TriangleAlert aria-hidden="true" className="size-10 text-amber-500" />
          <p className="text-base text-gray-800">{message}</p>
          <Link to="/" className="text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
            Go back
          </Link>
        </div>
      </main>
    </div>
  );
}
