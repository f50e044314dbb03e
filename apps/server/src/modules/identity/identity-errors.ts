import { ROLES } from '@opsdeck/shared';
import { AppError, errors } from '../../platform/errors';

/** The user-management errors (spec 002 §5), with the spec's own sentences as messages and the field as details. */
export const identityErrors = {
  invite: (field: 'firstName' | 'lastName' | 'email' | 'role', message: string) =>
    new AppError(400, 'OD_USER_INVITE', message, field, 'Send firstName, lastName, a valid email and one role'),
  roles: (message: string, details: string | null = null) =>
    new AppError(400, 'OD_USER_ROLES', message, details, `Choose one or more of ${ROLES.join(', ')}`),
  invitationNotSent: (reason: string) =>
    new AppError(
      502,
      'OD_INVITE_MAIL',
      'The invitation mail could not be sent, so the user was not created',
      reason,
      'Check OPSDECK_SMTP_URL and the mail server, then invite again',
    ),
  managedByProvider: (provider: string) =>
    new AppError(
      400,
      'OD_USERS_HOSTED',
      `People sign in through ${provider} here, so they are invited there`,
      null,
      'Add the person at the identity provider; they get an Opsdeck account at their first sign-in',
    ),
  userNotFound: () => errors.notFound('User'),
} as const;
