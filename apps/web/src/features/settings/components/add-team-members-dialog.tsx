import { useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { truncateName } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { QueryError } from '@/components/status/query-error';
import { useAddTeamMembers } from '../api/add-team-members';
import { useTeamCandidatesQuery } from '../api/get-team-candidates';
import type { TeamPerson } from '../api/team-members';

export interface AddTeamMembersDialogProps {
  teamId: string;
  /** Who is in the team already: never offered again. */
  memberIds: ReadonlySet<string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Spec 002 §2.2 and §4: picking a user moves them into a pending list (and out of the picker); Add sends the whole
 * list at once. A pending user can be taken back before adding.
 */
export function AddTeamMembersDialog({ teamId, memberIds, open, onOpenChange }: AddTeamMembersDialogProps) {
  const candidates = useTeamCandidatesQuery(open);
  const addMembers = useAddTeamMembers();
  const [pending, setPending] = useState<TeamPerson[]>([]);
  const options = useMemo(() => {
    const chosen = new Set(pending.map((person) => person.id));
    return (candidates.data ?? [])
      .filter((person) => !memberIds.has(person.id) && !chosen.has(person.id))
      .map((person) => ({ value: person.id, label: person.email === null ? truncateName(person.name) : `${truncateName(person.name)} (${person.email})` }));
  }, [candidates.data, memberIds, pending]);

  const handlePick = (id: string) => {
    const person = candidates.data?.find((candidate) => candidate.id === id);
    if (person !== undefined) setPending((list) => [...list, person]);
  };

  const handleAdd = () => {
    addMembers.mutate(
      { teamId, people: pending },
      {
        onSuccess: () => {
          setPending([]);
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add Team Members"
      size="small"
      expandable={false}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={addMembers.isPending}>
            Cancel
          </Button>
          <Button onClick={handleAdd} isPending={addMembers.isPending} disabled={pending.length === 0}>
            Add
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        {candidates.isError ? (
          <QueryError subject="Users" error={candidates.error} onRetry={() => void candidates.refetch()} />
        ) : (
          <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
            Users
            <Dropdown
              label="Users"
              options={options}
              value={undefined}
              onChange={handlePick}
              placeholder={candidates.isPending ? 'Loading users…' : options.length === 0 ? 'Everyone is in this team' : 'Select a user…'}
              disabled={candidates.isPending || options.length === 0 || addMembers.isPending}
              className="w-full"
            />
          </label>
        )}
        {pending.length > 0 && (
          <ul aria-label="Users to add" className="flex flex-col gap-1">
            {pending.map((person) => (
              <li key={person.id} className="flex items-center gap-2 rounded-md bg-gray-50 px-2 py-1 text-sm text-gray-800">
                <Avatar name={person.name} src={person.avatar} size="sm" />
                <span className="min-w-0 flex-1 truncate">{person.name}</span>
                <Button
                  variant="ghost"
                  aria-label={`Do not add ${person.name}`}
                  onClick={() => setPending((list) => list.filter((entry) => entry.id !== person.id))}
                  disabled={addMembers.isPending}
                >
                  <X aria-hidden="true" className="size-4" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
