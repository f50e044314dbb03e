import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AppToaster } from '@/components/toast/app-toaster';
import { IncidentLinkComposition } from './incident-link';
import { PlaybookRunComposition } from './playbook-run';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <IncidentLinkComposition>
        <PlaybookRunComposition>{children}</PlaybookRunComposition>
      </IncidentLinkComposition>
      <AppToaster />
    </QueryClientProvider>
  );
}
