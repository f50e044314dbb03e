import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EMAIL_PATTERN,
  inviteUserBodySchema,
  inviteUserResponseSchema,
  isRole,
  updateRoleBodySchema,
  updateRoleResponseSchema,
  USER_EMAIL_MAX_LENGTH,
  USER_FORM_MESSAGES,
  USER_NAME_MAX_LENGTH,
  type InviteUserBody,
  type Role,
} from '@opsdeck/shared';
import { SESSION_ENDED_EVENT } from '../../auth/sessions/authenticator';
import { createCourier } from '../../auth/shared/courier';
import { createRecoveryLink } from '../../auth/recovery/recovery-link';
import { requestOrigin } from '../../auth/shared/request-info';
import { DB_WRITTEN_EVENT } from '../../data-api/write-hooks';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { identityErrors } from './identity-errors';
import { INVITATION_TTL_MS, invitationMail } from './invitation-mail';
import { createInvitedUser, removeInvitedUser, replaceRoles, type NewUser } from './user-store';

const INVITE = { resource: 'identities', action: 'write' } as const;
const UPDATE_ROLE = { resource: 'rbac', action: 'write' } as const;

/** Data API writes that can end a sign-in or change what it may do: the authenticator's cache must not outlive them. */
const SIGN_IN_TABLES: ReadonlySet<string> = new Set(['identities', 'people', 'person_roles']);

/** Each field of an invitation as spec 002 §5 checks it, answered with the form's own sentence. */
function validInvitation(body: InviteUserBody): NewUser {
  const firstName = (body.firstName ?? '').trim();
  if (firstName === '' || firstName.length > USER_NAME_MAX_LENGTH) throw identityErrors.invite('firstName', USER_FORM_MESSAGES.firstName);
  const lastName = (body.lastName ?? '').trim();
  if (lastName === '' || lastName.length > USER_NAME_MAX_LENGTH) throw identityErrors.invite('lastName', USER_FORM_MESSAGES.lastName);
  // Addresses are compared without case everywhere (people_email_key is on lower(email)); storing them lower-cased
  // keeps the credential identifiers the sign-in compares equal to what people type.
  const email = (body.email ?? '').trim().toLowerCase();
  if (email === '') throw identityErrors.invite('email', USER_FORM_MESSAGES.email);
  if (email.length > USER_EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) throw identityErrors.invite('email', USER_FORM_MESSAGES.emailFormat);
  const role = body.role ?? '';
  if (!isRole(role)) throw identityErrors.invite('role', USER_FORM_MESSAGES.role);
  return { firstName, lastName, email, role };
}

function validRoles(roles: readonly string[]): Role[] {
  if (roles.length === 0) throw identityErrors.roles(USER_FORM_MESSAGES.role);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length > 0) throw identityErrors.roles(`Not a role: ${unknown.join(', ')}`, 'roles');
  return [...new Set(roles.filter(isRole))];
}

/**
 * User management (spec 002 §2.2, §6, §7): inviting a user and replacing their roles. The list, deletion and
 * deactivation go through the data API (identities_summary, DELETE and PATCH of identities), whose triggers end the
 * sessions (migration 0103); this plugin empties the session cache after such writes so the change applies to the
 * next request here at once. Registered outside the /api/auth scope, whose errors are Kratos-shaped: these routes
 * answer the console's {code, message, details, hint}.
 */
export const identityPlugin: DomainPlugin = {
  name: 'identity',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;
    const courier = createCourier(context.config, scoped.log);
    const forgetSessions = () => context.bus.publish({ name: SESSION_ENDED_EVENT, payload: {} });

    const unsubscribe = context.bus.subscribe(DB_WRITTEN_EVENT, (event) => {
      const table = event.payload.table;
      if (typeof table === 'string' && SIGN_IN_TABLES.has(table) && event.payload.method !== 'POST') forgetSessions();
    });
    scoped.addHook('onClose', async () => unsubscribe());

    app.post(
      '/api/auth/invite_user',
      {
        config: { permission: INVITE },
        schema: {
          tags: ['users'],
          summary: 'Invite a user: creates the person with the role and mails a link to set a password (an existing e-mail only gets the role)',
          body: inviteUserBodySchema,
          response: { 200: inviteUserResponseSchema, ...errorResponses(502) },
        },
      },
      async (request) => {
        // In hosted mode the recovery flow an invitation link opens is switched off, and accounts come from the
        // provider's sign-in: an invitation here could never be accepted.
        if (context.config.oidc !== null) throw identityErrors.managedByProvider(context.config.oidc.providerName);
        const user = validInvitation(request.body);
        const invited = await createInvitedUser(pool, user);
        if (invited.existing) {
          forgetSessions();
          return { id: invited.id, existing: true };
        }
        try {
          // The console's configured address when there is one: the request's Host header is the client's to choose.
          const origin = context.config.publicUrl ?? requestOrigin(request);
          const link = await createRecoveryLink(pool, invited.id, origin, INVITATION_TTL_MS);
          await courier.send(
            invitationMail({
              to: user.email,
              inviteeName: invited.name,
              inviterName: request.principal?.name ?? 'An administrator',
              role: user.role,
              link: link.url,
              expiresAt: link.expiresAt,
            }),
          );
          // Without a mail server the message reaches only the server log, which the admin may not read: the link is
          // answered to them, and to nobody else (INVITE is admin-only), so they can hand it over.
          return { id: invited.id, existing: false, link: courier.delivers ? null : { url: link.url, expiresAt: link.expiresAt } };
        } catch (error) {
          request.log.warn({ err: error }, 'invitation mail failed; the invited user was removed again');
          await removeInvitedUser(pool, invited.id);
          throw identityErrors.invitationNotSent(error instanceof Error ? error.message : String(error));
        }
      },
    );

    app.post(
      '/api/rbac/:id/update_role',
      {
        config: { permission: UPDATE_ROLE },
        schema: {
          tags: ['users'],
          summary: "Replace a user's roles with the given list",
          params: z.object({ id: z.uuid() }),
          body: updateRoleBodySchema,
          response: { 200: updateRoleResponseSchema, ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        const roles = validRoles(request.body.roles);
        const held = await replaceRoles(pool, request.params.id, roles);
        if (held === null) throw identityErrors.userNotFound();
        forgetSessions();
        return { id: request.params.id, roles: held };
      },
    );
  },
};
