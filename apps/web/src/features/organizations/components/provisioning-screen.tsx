import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { sessionKeys } from '@/lib/auth/session';
import { useDocumentTitle } from '@/lib/use-document-title';

/** How often the session is asked again while the instance is not answering. */
export const PROVISIONING_POLL_MS = 5_000;

export const PROVISIONING_TEXT = 'Please wait, instance provisioning in-progress ...';

/**
 * Spec 001 §2.1 and §8: in hosted mode a session check answering 404 or 5xx means the instance behind the console is
 * not ready yet, so the person waits here, and the check runs again until it answers.
 */
export function ProvisioningScreen() {
  useDocumentTitle('Provisioning');
  const queryClient = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.whoami() });
    }, PROVISIONING_POLL_MS);
    return () => clearInterval(timer);
  }, [queryClient]);
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 bg-gray-50 p-8">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-brand-600" />
      <p role="status" className="text-base text-gray-800">
        {PROVISIONING_TEXT}
      </p>
    </main>
  );
}
