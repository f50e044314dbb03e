import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { PlaybookTargetType } from '@opsdeck/shared';

export interface PlaybookRunTargetRef {
  type: PlaybookTargetType;
  id: string;
}

export interface PlaybooksMenuProps {
  target: PlaybookRunTargetRef;
  /** `menu`: a 'Playbooks' dropdown of the playbooks offered for the target; `button`: a 'Run' button opening the same list. */
  variant?: 'menu' | 'button';
}

/**
 * Where an area offers the playbooks that run on its item (the check modal footer, the config page's Playbooks tab, the
 * topology side panel). Features never import each other, so the playbooks feature's menu reaches the other areas
 * through this slot, which app/ fills; unfilled, it renders nothing.
 */
const PlaybooksMenuContext = createContext<ComponentType<PlaybooksMenuProps> | null>(null);

export function PlaybooksMenuProvider({ component, children }: { component: ComponentType<PlaybooksMenuProps>; children: ReactNode }) {
  return <PlaybooksMenuContext value={component}>{children}</PlaybooksMenuContext>;
}

export function PlaybooksMenuSlot(props: PlaybooksMenuProps) {
  const Component = useContext(PlaybooksMenuContext);
  return Component === null ? null : <Component {...props} />;
}

/** The run detail page of a run, for areas that list runs. */
export function playbookRunPath(runId: string): string {
  return `/playbooks/runs/${runId}`;
}
