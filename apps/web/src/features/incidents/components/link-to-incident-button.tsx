import { useState } from 'react';
import { Link2 } from 'lucide-react';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Button, type ButtonVariant } from '@/components/button/button';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import type { IncidentLinkProps } from '@/lib/incident-link/incident-link-slot';
import { LinkToIncidentDialog } from './link-to-incident-dialog';

export interface LinkToIncidentButtonProps extends IncidentLinkProps {
  variant?: ButtonVariant;
  className?: string;
}

/** 'Attach as Evidence': only for users who may write incidents, and never while the incidents area is switched off. */
export function LinkToIncidentButton({ evidence, onLinked, variant = 'secondary', className }: LinkToIncidentButtonProps) {
  const { can } = usePermissions();
  const { isEnabled } = useFeatureFlags();
  const [open, setOpen] = useState(false);
  if (!isEnabled('incidents') || !can('incident', 'write')) return null;
  return (
    <>
      <Button variant={variant} className={className} onClick={() => setOpen(true)}>
        <Link2 aria-hidden="true" className="size-4" />
        {INCIDENT_MESSAGES.attachAsEvidence}
      </Button>
      {open && <LinkToIncidentDialog open onOpenChange={setOpen} evidence={evidence} onLinked={onLinked} />}
    </>
  );
}
