import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/** The trigger buttons of a flow and the hidden input each one fills with the browser's answer. */
const TRIGGER_TARGETS = {
  webauthn_register_trigger: 'webauthn_register',
  webauthn_login_trigger: 'webauthn_login',
} as const;

export type WebAuthnTrigger = keyof typeof TRIGGER_TARGETS;

export function isWebAuthnTrigger(name: string): name is WebAuthnTrigger {
  return Object.hasOwn(TRIGGER_TARGETS, name);
}

/** The hidden input that carries the credential of `trigger` back to the identity service. */
export function webAuthnTarget(trigger: WebAuthnTrigger): string {
  return TRIGGER_TARGETS[trigger];
}

/** A ceremony that did not produce a credential, with a message meant for the person at the keyboard. */
export class WebAuthnCeremonyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebAuthnCeremonyError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The options JSON, also when the server wraps it as `{publicKey: …}` the way navigator.credentials takes it. */
function parseOptions(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  const options = isRecord(parsed) && isRecord(parsed.publicKey) ? parsed.publicKey : parsed;
  if (!isRecord(options) || typeof options.challenge !== 'string') {
    throw new WebAuthnCeremonyError('The security key request from the server could not be read. Reload the page and try again.');
  }
  return options;
}

function describeFailure(error: unknown): string {
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_CEREMONY_ABORTED':
        return 'The security key request was cancelled.';
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return 'This security key or device is already registered to your account.';
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return 'Security keys only work when the console is opened over HTTPS (or on localhost) at its configured address.';
    }
  }
  if (error instanceof Error && error.name === 'NotAllowedError') {
    return 'The browser refused the request or it timed out. Try again and follow the prompt of your browser or security key.';
  }
  const detail = error instanceof Error && error.message !== '' ? ` (${error.message})` : '';
  return `The browser could not complete the security key request${detail}.`;
}

/**
 * Runs the browser side of a WebAuthn registration or sign-in with the options the identity service put in the
 * trigger's value, and returns the credential as the JSON string the service expects in the hidden input.
 */
export async function runWebAuthnCeremony(trigger: WebAuthnTrigger, optionsValue: string): Promise<string> {
  if (!browserSupportsWebAuthn()) {
    throw new WebAuthnCeremonyError('This browser cannot use security keys or biometrics. Use a current browser, or another sign-in method.');
  }
  const options = parseOptions(optionsValue);
  try {
    // The shape beyond the challenge is the browser library's to check: it reports a malformed request itself.
    const credential =
      trigger === 'webauthn_register_trigger'
        ? await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON })
        : await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
    return JSON.stringify(credential);
  } catch (error) {
    throw new WebAuthnCeremonyError(describeFailure(error));
  }
}
