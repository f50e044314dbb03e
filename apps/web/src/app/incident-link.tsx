import type { ReactNode } from 'react';
import { LinkToIncidentButton } from '@/features/incidents/components/link-to-incident-button';
import { LinkToIncidentDialog } from '@/features/incidents/components/link-to-incident-dialog';
import { IncidentLinkProvider } from '@/lib/incident-link/incident-link-slot';

/**
 * Fills every area's Link to Incident slot with the incidents feature's Attach as Evidence button, and hands its dialog
 * to areas that open it from their own action. Features never import each other, so this is where the incidents
 * feature reaches the others (the health check modal, the config page, …).
 */
export function IncidentLinkComposition({ children }: { children: ReactNode }) {
  return <IncidentLinkProvider component={LinkToIncidentButton} dialog={LinkToIncidentDialog}>{children}</IncidentLinkProvider>;
}
