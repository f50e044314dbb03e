import { z } from 'zod';
import { ROLES } from './roles';

/**
 * The texts of spec 002 §5 for the Invite User and Update User Role forms. The server answers its 400s with the same
 * sentences, so a client that skipped its own checks still shows people what the console would have said.
 */
export const USER_FORM_MESSAGES = {
  firstName: 'Please provide valid first name',
  lastName: 'Please provide valid last name',
  email: 'Please provide valid email',
  emailFormat: 'Entered value does not match email format',
  role: 'Please select any role',
  user: 'Please select any user',
} as const;

/** The limit of the registration and settings flows on each part of a name (message 4000017), so both agree. */
export const USER_NAME_MAX_LENGTH = 100;

/** RFC 5321's limit on a forward path. */
export const USER_EMAIL_MAX_LENGTH = 320;

/** Spec 002 §9: user names are shown up to 50 characters (the role picker). */
export const USER_NAME_DISPLAY_LIMIT = 50;

/**
 * One address: something before a single @, a domain with a dot after it, no spaces. Deliberately loose, as the
 * invitation mail is what proves the address works.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** A name cut to `limit` characters, ending with an ellipsis when it was longer. */
export function truncateName(name: string, limit: number = USER_NAME_DISPLAY_LIMIT): string {
  const characters = [...name];
  return characters.length <= limit ? name : `${characters.slice(0, limit).join('')}…`;
}

/** POST /api/auth/invite_user (spec 002 §7); the server checks each field with the texts above. */
export const inviteUserBodySchema = z.object({
  firstName: z.string().max(4096).optional(),
  lastName: z.string().max(4096).optional(),
  email: z.string().max(4096).optional(),
  role: z.string().max(64).optional(),
});
export type InviteUserBody = z.infer<typeof inviteUserBodySchema>;

/** The invited person's id; `existing` when the e-mail belonged to a user already, who was only given the role. */
/**
 * `link` is the invitation link itself, answered only while no mail server is configured (the message then reaches
 * nothing but the server log): the admin who invited gives it to the person (#34 item 19).
 */
export const inviteUserResponseSchema = z.object({
  id: z.string(),
  existing: z.boolean(),
  link: z.object({ url: z.string(), expiresAt: z.string() }).nullable().optional(),
});
export type InviteUserResponse = z.infer<typeof inviteUserResponseSchema>;

/** POST /api/rbac/{id}/update_role: the person's roles afterwards, replacing the ones they had. */
export const updateRoleBodySchema = z.object({ roles: z.array(z.string().max(64)).max(ROLES.length * 4) });
export type UpdateRoleBody = z.infer<typeof updateRoleBodySchema>;

export const updateRoleResponseSchema = z.object({ id: z.string(), roles: z.array(z.enum(ROLES)) });
export type UpdateRoleResponse = z.infer<typeof updateRoleResponseSchema>;

/** A row of the Users screen (GET /api/db/identities_summary). */
export interface UserSummary {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
  roles: string[];
  state: 'active' | 'inactive';
  /** No credential yet: the invitation's link has not been used to set a password. */
  invited: boolean;
  created_at: string;
  updated_at: string;
}
