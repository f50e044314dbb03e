import { AppError, errors } from '../../platform/errors';

export const apiTokenErrors = {
  roleTooHigh: (role: string, highest: string) =>
    new AppError(400, 'OD_API_TOKEN_ROLE', `A token cannot have the ${role} role: your highest role is ${highest}`, 'role', `Choose ${highest} or a lower role`),
  sessionOnly: () =>
    new AppError(
      403,
      'OD_API_TOKEN_SESSION_ONLY',
      'API tokens are created from a signed-in session, not with another token',
      null,
      'Sign in to the console and create the token on the profile page',
    ),
  tooMany: (limit: number) =>
    new AppError(409, 'OD_API_TOKEN_LIMIT', `You already hold ${limit} live API tokens`, null, 'Revoke tokens you no longer use, then create a new one'),
  notFound: () => errors.notFound('API token'),
} as const;
