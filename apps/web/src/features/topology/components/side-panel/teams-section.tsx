import { useState } from 'react';
import { Link } from 'react-router';
import { Unlink, UserPlus } from 'lucide-react';
import type { TopologyComponent } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { usePermissions } from '@/lib/auth/permissions';
import { MANUAL_SELECTOR } from '../../api/get-component-configs';
import { useComponentTeamsQuery, type ComponentTeamLink } from '../../api/get-component-teams';
import { useUnlinkTeamMutation } from '../../api/unlink-team';
import { LinkTeamDialog } from '../link-team-dialog';
import { SECTION_LINK_CLASS, SECTION_LIST_CLASS, SECTION_ROW_CLASS, SectionQuery } from './section-query';

/** Teams: who owns the component; writers add a team and remove the links they made by hand. */
export function TeamsSection({ component }: { component: TopologyComponent }) {
  const teams = useComponentTeamsQuery(component.id);
  const canWrite = usePermissions().can('topologies', 'write');
  const unlink = useUnlinkTeamMutation();
  const [pendingUnlink, setPendingUnlink] = useState<ComponentTeamLink | null>(null);
  const [isLinking, setIsLinking] = useState(false);

  const handleConfirmUnlink = () => {
    if (pendingUnlink === null) return;
    unlink.mutate({ componentId: component.id, teamId: pendingUnlink.team_id }, { onSettled: () => setPendingUnlink(null) });
  };

  return (
    <div className="flex flex-col gap-2">
      {canWrite && (
        <Button variant="secondary" className="self-start" onClick={() => setIsLinking(true)}>
          <UserPlus aria-hidden="true" className="size-4" />
          Link to team
        </Button>
      )}
      <SectionQuery query={teams} subject="Teams" emptyText="No teams">
        {(links) => (
          <ul className={SECTION_LIST_CLASS}>
            {links.map((link) => {
              const name = link.team?.name ?? link.team_id;
              return (
                <li key={`${link.team_id}-${link.selector_id}`} className={SECTION_ROW_CLASS}>
                  <Avatar name={name} size="sm" />
                  <Link to={`/settings/teams/${link.team_id}`} className={SECTION_LINK_CLASS}>
                    {name}
                  </Link>
                  {link.role && <span className="truncate text-xs text-gray-500">{link.role}</span>}
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
        title="Unlink team"
        message="Are you sure you want to delete this team link."
        confirmLabel="Unlink"
        isPending={unlink.isPending}
        onConfirm={handleConfirmUnlink}
      />
      {canWrite && <LinkTeamDialog component={component} open={isLinking} onOpenChange={setIsLinking} />}
    </div>
  );
}
