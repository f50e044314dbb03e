import type { RowWith, TableRow } from '@opsdeck/shared';

/** A person as the Teams tab shows them (spec 002 §3 'user entries': id, name, email, avatar). */
export type TeamPerson = Pick<TableRow<'people'>, 'id' | 'name' | 'email' | 'avatar'>;

/** A row of GET /team_members?team_id=eq.{id}&select=*,person_id(*): the membership with its person embedded. */
export type TeamMemberRow = RowWith<
  Pick<TableRow<'team_members'>, 'team_id' | 'person_id' | 'created_at'>,
  { person_id: TeamPerson & Pick<TableRow<'people'>, 'deleted_at'> }
>;
