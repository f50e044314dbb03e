import type { TableRow } from '@opsdeck/shared';

/** A person as the data API embeds one in another row (created_by, a recipient, a responder). */
export type PersonRef = Pick<TableRow<'people'>, 'id' | 'name' | 'avatar'>;

/** A team as the data API embeds one in another row. */
export type TeamRef = Pick<TableRow<'teams'>, 'id' | 'name' | 'icon'>;
