import { useState } from 'react';
import { Link } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { Camera, EllipsisVertical, Link2, PanelRight, Settings, Users } from 'lucide-react';
import { usePermissions } from '@/lib/auth/permissions';
import type { TopologyComponent } from '../api/types';
import { LinkConfigDialog } from './link-config-dialog';
import { LinkTeamDialog } from './link-team-dialog';
import { SnapshotDialog } from './snapshot-dialog';

const MENU_CONTENT = 'z-50 min-w-48 rounded-md border border-gray-200 bg-white p-1 text-sm text-gray-700 shadow-lg';
const MENU_ITEM =
  'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none select-none data-[highlighted]:bg-gray-100 data-[highlighted]:text-gray-900';

type OpenDialog = 'config' | 'team' | 'snapshot' | null;

export interface CardMenuProps {
  component: TopologyComponent;
  /** Offers 'Open side panel' when given. */
  onOpenSidePanel?: () => void;
}

/**
 * A card's actions. Linking changes the topology, so the Link entries are offered only to users who may write
 * topologies (the server refuses the rest anyway); everyone who sees the card may read its topology's settings.
 */
export function CardMenu({ component, onOpenSidePanel }: CardMenuProps) {
  const { can } = usePermissions();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const canWrite = can('topologies', 'write');
  // The topology's settings page is offered on its root card, which stands for the whole topology.
  const topologyId = component.parent_id === null ? component.topology_id : null;
  const handleOpenChange = (open: boolean) => {
    if (!open) setDialog(null);
  };
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          aria-label={`Actions for ${component.name}`}
          className="inline-flex size-7 shrink-0 items-center justify-center rounded text-gray-500 hover:bg-gray-100 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          <EllipsisVertical aria-hidden="true" className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className={MENU_CONTENT}>
            {onOpenSidePanel !== undefined && (
              <DropdownMenu.Item className={MENU_ITEM} onSelect={onOpenSidePanel}>
                <PanelRight aria-hidden="true" className="size-4" />
                Open side panel
              </DropdownMenu.Item>
            )}
            {canWrite && (
              <>
                <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setDialog('config')}>
                  <Link2 aria-hidden="true" className="size-4" />
                  Link to config
                </DropdownMenu.Item>
                <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setDialog('team')}>
                  <Users aria-hidden="true" className="size-4" />
                  Link to team
                </DropdownMenu.Item>
              </>
            )}
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setDialog('snapshot')}>
              <Camera aria-hidden="true" className="size-4" />
              Snapshot
            </DropdownMenu.Item>
            {topologyId !== null && (
              <DropdownMenu.Item asChild className={MENU_ITEM}>
                <Link to={`/settings/topologies/${encodeURIComponent(topologyId)}`}>
                  <Settings aria-hidden="true" className="size-4" />
                  Topology settings
                </Link>
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {dialog === 'config' && <LinkConfigDialog component={component} open onOpenChange={handleOpenChange} />}
      {dialog === 'team' && <LinkTeamDialog component={component} open onOpenChange={handleOpenChange} />}
      {dialog === 'snapshot' && <SnapshotDialog component={component} open onOpenChange={handleOpenChange} />}
    </>
  );
}
