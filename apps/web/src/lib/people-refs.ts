/** A person as the data API embeds one in another row (created_by, a recipient, a responder). */
export interface PersonRef {
  id: string;
  name: string;
  avatar: string | null;
}

/** A team as the data API embeds one in another row. */
export interface TeamRef {
  id: string;
  name: string;
  icon: string | null;
}
