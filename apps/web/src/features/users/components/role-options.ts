import { ROLES, type Role } from '@opsdeck/shared';
import type { DropdownOption } from '@/components/dropdown/dropdown';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', editor: 'Editor', commander: 'Commander', responder: 'Responder', viewer: 'Viewer' };

/** The roles of spec 002 §5 in the order the role table lists them. */
export const ROLE_OPTIONS: readonly DropdownOption<Role>[] = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
