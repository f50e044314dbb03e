import type { TableRow } from '@opsdeck/shared';

/** A person as the Teams tab shows them (spec 002 §3 'user entries': id, name, email, avatar). */
export type TeamPerson = Pick<TableRow<'people'>, 'id' | 'name' | 'email' | 'avatar'>;
