/**
 * Errors of the identity service keep Kratos's body shape `{error: {id, code, status, reason, message}}` rather than
 * the PostgREST shape of the rest of the API, because the web's flow pages (and any Kratos client) branch on
 * `error.id` (spec 002 §8).
 */
export interface KratosErrorBody {
  error: {
    id?: string;
    code: number;
    status: string;
    reason?: string;
    message: string;
  };
  /** Only for expired flows: the replacement flow the client should continue with. */
  use_flow_id?: string;
  expired_at?: string;
  since?: number;
  redirect_browser_to?: string;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export class KratosError extends Error {
  readonly statusCode: number;
  readonly id: string | undefined;
  readonly reason: string | undefined;
  readonly extra: Omit<KratosErrorBody, 'error'>;

  constructor(statusCode: number, id: string | undefined, message: string, reason?: string, extra: Omit<KratosErrorBody, 'error'> = {}) {
    super(message);
    this.name = 'KratosError';
    this.statusCode = statusCode;
    this.id = id;
    this.reason = reason;
    this.extra = extra;
  }

  toBody(): KratosErrorBody {
    return {
      error: {
        ...(this.id === undefined ? {} : { id: this.id }),
        code: this.statusCode,
        status: STATUS_TEXT[this.statusCode] ?? 'Error',
        ...(this.reason === undefined ? {} : { reason: this.reason }),
        message: this.message,
      },
      ...this.extra,
    };
  }
}

export const kratosErrors = {
  sessionInactive: () =>
    new KratosError(401, 'session_inactive', 'request does not have a valid authentication session', 'No active session was found in this request.'),
  sessionAlreadyAvailable: () =>
    new KratosError(400, 'session_already_available', 'a valid session was detected', 'You are already signed in; sign out first or ask for a refresh flow.'),
  aal2Unavailable: () =>
    new KratosError(400, undefined, 'second factor not available', 'No second authentication factor is set up for this account.'),
  flowNotFound: () => new KratosError(404, undefined, 'the requested resource could not be found', 'The flow does not exist.'),
  flowExpired: (expiredAt: string, useFlowId: string) =>
    new KratosError(410, 'self_service_flow_expired', 'self-service flow expired', 'The flow expired or was already used; continue with the new flow.', {
      use_flow_id: useFlowId,
      expired_at: expiredAt,
      // Kratos reports the elapsed time as a Go duration, in nanoseconds.
      since: Math.max(0, Date.now() - Date.parse(expiredAt)) * 1_000_000,
    }),
  csrfViolation: () =>
    new KratosError(
      403,
      'security_csrf_violation',
      'the request was rejected to protect you from Cross-Site-Request-Forgery',
      'The form token did not match this browser; reload the form and try again.',
    ),
  returnToForbidden: () =>
    new KratosError(400, 'self_service_flow_return_to_forbidden', 'requested return_to URL is not allowed', 'Only paths on this site and the origins of OPSDECK_RETURN_TO_ALLOWLIST are allowed as return_to.'),
  tooManyAttempts: () =>
    new KratosError(429, 'self_service_flow_rate_limited', 'too many failed sign-in attempts', 'Too many failed sign-in attempts from this address; wait a few minutes and try again.'),
  badRequest: (message: string) => new KratosError(400, undefined, message),
  registrationDisabled: (hosted: boolean) =>
    new KratosError(
      400,
      'self_service_flow_disabled',
      'registration is turned off on this server',
      hosted
        ? 'Accounts come from the identity provider this console signs in with; sign up there.'
        : 'New accounts cannot be created here; ask an administrator to invite you.',
    ),
  flowRateLimited: () =>
    new KratosError(429, 'self_service_flow_rate_limited', 'too many requests for this flow', 'Too many attempts or mails from this address; wait a few minutes and try again.'),
  browserLocationChangeRequired: (location: string) =>
    new KratosError(422, 'browser_location_change_required', 'browser location change required', `Continue at ${location}.`, {
      redirect_browser_to: location,
    }),
  aal2Required: (redirectTo: string) =>
    new KratosError(403, 'session_aal2_required', 'a second authentication factor is required', 'This account has a second factor; finish signing in with it.', {
      redirect_browser_to: redirectTo,
    }),
  refreshRequired: (redirectTo: string) =>
    new KratosError(403, 'session_refresh_required', 'a recent sign-in is required for this change', 'Confirm it is you by signing in again, then repeat the change.', {
      redirect_browser_to: redirectTo,
    }),
  identityMismatch: () =>
    new KratosError(403, 'security_identity_mismatch', 'the flow belongs to another identity', 'This flow was opened by another account; start a new one.'),
} as const;
