import { useId, useState, type FormEvent } from 'react';
import type { TopologyComponent } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { useComponentTeamsQuery } from '../api/get-component-teams';
import { useLinkTeamMutation } from '../api/link-team';
import { useLinkTeamOptionsQuery } from '../api/link-team-options';
import { PickList } from './side-panel/pick-list';

export interface LinkTeamDialogProps {
  component: TopologyComponent;
  open: boolean;
  onOpenChange(open: boolean): void;
}

function LinkTeamForm({ component, onDone }: { component: TopologyComponent; onDone: () => void }) {
  const formId = useId();
  const [teamId, setTeamId] = useState<string | null>(null);
  const teams = useLinkTeamOptionsQuery();
  const linked = useComponentTeamsQuery(component.id);
  const link = useLinkTeamMutation();
  const linkedIds = new Set((linked.data ?? []).map((entry) => entry.team_id));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (teamId === null || link.isPending) return;
    link.mutate({ componentId: component.id, teamId }, { onSuccess: onDone });
  };

  return (
    <form aria-label="Link to team" onSubmit={handleSubmit} className="flex flex-col gap-3">
      {teams.isError ? (
        <QueryError subject="Teams" error={teams.error} onRetry={() => void teams.refetch()} />
      ) : teams.isPending ? (
        <p role="status" className="text-sm text-gray-500">
          Loading…
        </p>
      ) : teams.data.length === 0 ? (
        <p className="text-sm text-gray-500">No teams</p>
      ) : (
        <PickList
          name={`${formId}-team`}
          label="Teams"
          value={teamId}
          onChange={setTeamId}
          options={teams.data.map((team) => ({
            id: team.id,
            label: team.name,
            detail: linkedIds.has(team.id) ? 'Linked' : undefined,
            disabled: linkedIds.has(team.id),
          }))}
        />
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={link.isPending} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={teamId === null} isPending={link.isPending}>
          Link
        </Button>
      </div>
    </form>
  );
}

/** Link to team: make a team an owner of the component. */
export function LinkTeamDialog({ component, open, onOpenChange }: LinkTeamDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Link ${component.name} to team`} size="small" expandable={false}>
      {open && <LinkTeamForm component={component} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}
