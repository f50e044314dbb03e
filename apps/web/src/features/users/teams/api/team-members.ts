/** A person as the Teams tab shows them (spec 002 §3 'user entries': id, name, email, avatar). */
export interface TeamPerson {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

/** A row of GET /team_members?team_id=eq.{id}&select=*,person_id(*): the membership with its person embedded. */
export interface TeamMemberRow {
  team_id: string;
  person_id: TeamPerson & { deleted_at: string | null };
  created_at: string;
}
