import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { IncidentEvidenceInput } from '@opsdeck/shared';

/** The evidence another area hands over to be linked to an incident: its type, the linked item and the inner payload. */
export type LinkableEvidence = IncidentEvidenceInput;

export interface IncidentLinkProps {
  evidence: LinkableEvidence;
  /** Told whether the evidence was attached. */
  onLinked?: (linked: boolean) => void;
}

/**
 * What an area renders where a user may link its item to an incident. Features never import each other, so the
 * incidents feature's button reaches other areas through this slot, which app/ fills; unfilled, it renders nothing.
 */
const IncidentLinkContext = createContext<ComponentType<IncidentLinkProps> | null>(null);

export function IncidentLinkProvider({ component, children }: { component: ComponentType<IncidentLinkProps>; children: ReactNode }) {
  return <IncidentLinkContext value={component}>{children}</IncidentLinkContext>;
}

export function IncidentLinkSlot(props: IncidentLinkProps) {
  const Component = useContext(IncidentLinkContext);
  return Component === null ? null : <Component {...props} />;
}
