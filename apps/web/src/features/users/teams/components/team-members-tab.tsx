import { useMemo, useState } from 'react';
import { UserMinus, UserPlus } from 'lucide-react';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { QueryError } from '@/components/status/query-error';
import { useTeamMembersQuery } from '../api/get-team-members';
import { useRemoveTeamMember } from '../api/remove-team-member';
import { AddTeamMembersDialog } from './add-team-members-dialog';

export const NO_TEAM_MEMBERS_MESSAGE = "You haven't added any team members to the team yet.";

export interface TeamMembersTabProps {
  teamId: string;
  /** Adding and removing members: membership makes people approvers of playbook runs, so it needs the rbac write. */
  canManage: boolean;
}

/** The 'manageTeam' tab of a team's page (spec 002 §2.2 'Teams tab'): its members, and adding or removing them. */
export function TeamMembersTab({ teamId, canManage }: TeamMembersTabProps) {
  const members = useTeamMembersQuery(teamId);
  const removeMember = useRemoveTeamMember();
  const [isAdding, setIsAdding] = useState(false);
  const memberIds = useMemo(() => new Set((members.data ?? []).map((person) => person.id)), [members.data]);

  if (members.isError) return <QueryError subject="Team members" error={members.error} onRetry={() => void members.refetch()} />;

  return (
    <section aria-label="Team members" aria-busy={members.isPending || undefined} className="flex flex-col gap-3">
      {canManage && (
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => setIsAdding(true)} disabled={members.isPending}>
            <UserPlus aria-hidden="true" className="size-4" />
            Add Members
          </Button>
        </div>
      )}
      {members.isPending ? (
        <p className="py-6 text-center text-sm text-gray-500">Loading team members…</p>
      ) : members.data.length === 0 ? (
        <p className="py-6 text-center text-sm text-gray-500">{NO_TEAM_MEMBERS_MESSAGE}</p>
      ) : (
        <ul aria-label="Members" className="divide-y divide-gray-100 rounded-md ring-1 ring-gray-200">
          {members.data.map((person) => (
            <li key={person.id} className="flex items-center gap-3 px-3 py-2">
              <Avatar name={person.name} src={person.avatar} size="md" />
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-sm font-medium text-gray-900">{person.name}</span>
                {person.email !== null && <span className="truncate text-xs text-gray-500">{person.email}</span>}
              </span>
              {canManage && (
                <Button
                  variant="ghost"
                  aria-label={`Remove ${person.name}`}
                  isPending={removeMember.isPending && removeMember.variables.person.id === person.id}
                  onClick={() => removeMember.mutate({ teamId, person })}
                >
                  <UserMinus aria-hidden="true" className="size-4" />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {isAdding && <AddTeamMembersDialog teamId={teamId} memberIds={memberIds} open onOpenChange={setIsAdding} />}
    </section>
  );
}
