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

export interface IncidentLinkDialogProps extends IncidentLinkProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The Link to Incident dialog alone, for an area that opens it from an action of its own (the config page's 'Link to
 * incident', whose evidence is read from the lines selected when it opens).
 */
const IncidentLinkDialogContext = createContext<ComponentType<IncidentLinkDialogProps> | null>(null);

export interface IncidentLinkProviderProps {
  component: ComponentType<IncidentLinkProps>;
  dialog?: ComponentType<IncidentLinkDialogProps>;
  children: ReactNode;
}

export function IncidentLinkProvider({ component, dialog, children }: IncidentLinkProviderProps) {
  return (
    <IncidentLinkContext value={component}>
      <IncidentLinkDialogContext value={dialog ?? null}>{children}</IncidentLinkDialogContext>
    </IncidentLinkContext>
  );
}

/** The dialog app/ filled in, or null when no area provides one. */
export function useIncidentLinkDialog(): ComponentType<IncidentLinkDialogProps> | null {
  return useContext(IncidentLinkDialogContext);
}

export function IncidentLinkSlot(props: IncidentLinkProps) {
  const Component = useContext(IncidentLinkContext);
  return Component === null ? null : <Component {...props} />;
}
