import type { ReactNode } from 'react';
import { useAuthMode } from '@/lib/auth/auth-mode';
import { useDocumentTitle } from '@/lib/use-document-title';

function ManagedElsewhere({ provider }: { provider: string | undefined }) {
  useDocumentTitle('Page not found');
  return (
    <section className="flex min-h-full items-center justify-center p-8">
      <div className="flex max-w-md flex-col items-center gap-2 text-center">
        <h1 className="text-lg font-semibold text-gray-900">Page not found</h1>
        <p className="text-sm text-gray-600">
          People sign in through {provider ?? 'an external provider'} here, and their accounts are managed there.
        </p>
      </div>
    </section>
  );
}

export interface SelfHostedOnlyProps {
  children: ReactNode;
}

/**
 * Pages of the built-in identity service (spec 002 §2.2: Users is hidden when the external provider is used). While
 * the mode loads nothing is shown, so a hosted console never flashes the page.
 */
export function SelfHostedOnly({ children }: SelfHostedOnlyProps) {
  const mode = useAuthMode();
  if (mode.isPending) return null;
  if (mode.data?.mode === 'hosted') return <ManagedElsewhere provider={mode.data.provider_name} />;
  return children;
}
