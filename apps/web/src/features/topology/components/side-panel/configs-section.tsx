import { useState } from 'react';
import { Link } from 'react-router';
import { Link2, Unlink } from 'lucide-react';
import type { TopologyComponent } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { HealthDot } from '@/components/status/health-dot';
import { usePermissions } from '@/lib/auth/permissions';
import { MANUAL_SELECTOR, useComponentConfigsQuery, type ComponentConfigLink } from '../../api/get-component-configs';
import { useUnlinkConfigMutation } from '../../api/unlink-config';
import { LinkConfigDialog } from '../link-config-dialog';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Configs: the catalog items linked to the component; writers link more and remove the links they made by hand. */
export function ConfigsSection({ component }: { component: TopologyComponent }) {
  const configs = useComponentConfigsQuery(component.id);
  const canWrite = usePermissions().can('topologies', 'write');
  const unlink = useUnlinkConfigMutation();
  const [pendingUnlink, setPendingUnlink] = useState<ComponentConfigLink | null>(null);
  const [isLinking, setIsLinking] = useState(false);

  const handleConfirmUnlink = () => {
    if (pendingUnlink === null) return;
    unlink.mutate({ componentId: component.id, configId: pendingUnlink.config_id }, { onSettled: () => setPendingUnlink(null) });
  };

  return (
    <div className="flex flex-col gap-2">
      {canWrite && (
        <Button variant="secondary" className="self-start" onClick={() => setIsLinking(true)}>
          <Link2 aria-hidden="true" className="size-4" />
          Link to config
        </Button>
      )}
      <SectionQuery query={configs} subject="Configs" emptyText="No configs linked">
        {(links) => (
          <ul className={SECTION_LIST_CLASS}>
            {links.map((link) => {
              const name = link.config?.name ?? link.config_id;
              return (
                <li key={`${link.config_id}-${link.selector_id}`} className={SECTION_ROW_CLASS}>
                  <HealthDot status={link.config?.health} />
                  <Link to={`/catalog/${link.config_id}`} className={SECTION_LINK_CLASS}>
                    {name}
                  </Link>
                  {link.config?.type && <span className="truncate text-xs text-gray-500">{link.config.type}</span>}
                  {canWrite && link.selector_id === MANUAL_SELECTOR && (
                    <Button variant="ghost" className="ml-auto px-1.5" aria-label={`Unlink ${name}`} title="Unlink" onClick={() => setPendingUnlink(link)}>
                      <Unlink aria-hidden="true" className="size-4" />
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </SectionQuery>
      <ConfirmDialog
        open={pendingUnlink !== null}
        onOpenChange={(open) => {
          if (!open && !unlink.isPending) setPendingUnlink(null);
        }}
        title="Unlink config"
        message="Are you sure you want to delete this config link."
        confirmLabel="Unlink"
        isPending={unlink.isPending}
        onConfirm={handleConfirmUnlink}
      />
      {canWrite && <LinkConfigDialog component={component} open={isLinking} onOpenChange={setIsLinking} />}
    </div>
  );
}
