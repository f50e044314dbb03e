import { KratosError } from '../shared/kratos-error';

/** Why a provider sign-in ended on the sign-in page instead of in the console; the web explains each one. */
export const SIGN_IN_ERRORS = [
  'access_denied',
  'sign_in_expired',
  'sign_in_failed',
  'provider_unavailable',
  'email_missing',
  'email_unverified',
  'identity_inactive',
  'identity_deleted',
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

/** The query parameter of /login that carries a SignInError. */
export const SIGN_IN_ERROR_PARAM = 'oidc_error';

export const hostedErrors = {
  /** In hosted mode the provider owns passwords, sign-up and recovery; our own flows would be a second way in. */
  selfServiceClosed: (providerName: string) =>
    new KratosError(
      400,
      'self_service_flow_disabled',
      'this flow is turned off in hosted mode',
      `People sign in through ${providerName}; passwords, sign-up, recovery and profile changes are handled there.`,
      { redirect_browser_to: '/login' },
    ),
  notAMember: () =>
    new KratosError(403, undefined, 'not a member of that organization', 'You can only switch to an organization your identity provider lists for you.'),
} as const;
