import { usePermissions } from '@/lib/auth/permissions';
import { ResourceDetailPage } from '@/lib/settings-resources/components/resource-detail-page';
import { ResourceListPage } from '@/lib/settings-resources/components/resource-list-page';
import type { ResourcePanelProps, SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { TEAMS_KIND } from '../teams-kind';
import { TEAM_COLUMNS } from './team-columns';
import { TeamMembersTab } from './team-members-tab';

function TeamMembersPanel({ resource, readOnly }: ResourcePanelProps) {
  const { can } = usePermissions();
  return <TeamMembersTab teamId={resource.id} canManage={!readOnly && can('rbac', 'write')} />;
}

/** Teams with their Manage Team tab and list columns, which only this feature can draw. */
const TEAMS_WITH_MEMBERS: SettingsResourceKind = { ...TEAMS_KIND, extraColumns: TEAM_COLUMNS, panels: { manageTeam: TeamMembersPanel } };

/** /settings/teams. */
export function TeamListPage() {
  return <ResourceListPage kind={TEAMS_WITH_MEMBERS} />;
}

/** /settings/teams/{id}. */
export function TeamDetailPage() {
  return <ResourceDetailPage kind={TEAMS_WITH_MEMBERS} />;
}
