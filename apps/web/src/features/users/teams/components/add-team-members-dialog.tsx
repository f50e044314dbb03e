import { useId, useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { DEBOUNCE_MS, truncateName } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SearchPicker, type SearchPickerOption } from '@/components/forms/search-picker';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useAddTeamMembers } from '../api/add-team-members';
import { TEAM_CANDIDATE_LIMIT, useTeamCandidatesQuery } from '../api/get-team-candidates';
import type { TeamPerson } from '../api/team-members';

export interface AddTeamMembersDialogProps {
  teamId: string;
  /** Who is in the team already: never offered again. */
  memberIds: ReadonlySet<string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Names are cut to 50 characters (spec 002 §9); the address beside them tells two alike apart. */
function personLabel(person: TeamPerson): string {
  return person.email === null ? truncateName(person.name) : `${truncateName(person.name)} (${person.email})`;
}

/**
 * Spec 002 §2.2 and §4: picking a user moves them into a pending list (and out of the picker); Add sends the whole
 * list at once. A pending user can be taken back before adding. The picker asks the server for people outside the
 * team whose name or e-mail contains what is typed, so it never loads everyone.
 */
export function AddTeamMembersDialog({ teamId, memberIds, open, onOpenChange }: AddTeamMembersDialogProps) {
  const pickerId = useId();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), DEBOUNCE_MS.search);
  const candidates = useTeamCandidatesQuery(teamId, search);
  const addMembers = useAddTeamMembers();
  const [pending, setPending] = useState<TeamPerson[]>([]);
  // The server leaves the members out; the ones known here are left out too, in case the answer predates an addition.
  const offered = useMemo(() => {
    const chosen = new Set(pending.map((person) => person.id));
    return (candidates.data ?? []).filter((person) => !memberIds.has(person.id) && !chosen.has(person.id));
  }, [candidates.data, memberIds, pending]);
  const options = useMemo<SearchPickerOption[]>(() => offered.map((person) => ({ id: person.id, label: personLabel(person) })), [offered]);

  const handlePick = (option: SearchPickerOption) => {
    const person = offered.find((candidate) => candidate.id === option.id);
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
        <div className="flex flex-col gap-1">
          <label htmlFor={pickerId} className="text-sm font-medium text-gray-800">
            Users
          </label>
          <SearchPicker
            id={pickerId}
            listLabel="Matching users"
            text={text}
            onTextChange={setText}
            options={options}
            isSearching={text.trim() !== search || candidates.isFetching}
            error={candidates.isError && search === text.trim() ? candidates.error : null}
            errorSubject="Users"
            onRetry={() => void candidates.refetch()}
            emptyText="No matching users"
            limitReached={(candidates.data?.length ?? 0) >= TEAM_CANDIDATE_LIMIT}
            onPick={handlePick}
            disabled={addMembers.isPending}
            autoFocus
          />
        </div>
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
