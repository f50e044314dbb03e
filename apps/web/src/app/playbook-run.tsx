import type { ReactNode } from 'react';
import { PlaybooksMenu } from '@/features/playbooks/components/run/playbooks-menu';
import { PlaybooksMenuProvider } from '@/lib/playbook-run/playbook-run-slot';

/** Fills every area's Playbooks slot with the playbooks feature's menu and Run Playbook modal. */
export function PlaybookRunComposition({ children }: { children: ReactNode }) {
  return <PlaybooksMenuProvider component={PlaybooksMenu}>{children}</PlaybooksMenuProvider>;
}
