import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { factorTexts } from '../factors/second-factor-texts';
import { csrfNode, inputNode, type UiNode } from '../shared/ui-nodes';

/**
 * The password login form. A refresh flow (re-authentication of the signed-in person) carries their identifier as a
 * hidden field, so only the password is asked again.
 */
export function loginNodes(options: { identifier?: string; refreshOf?: string } = {}): UiNode[] {
  const identifier =
    options.refreshOf === undefined
      ? inputNode(
          'default',
          { name: 'identifier', type: 'text', value: options.identifier ?? '', required: true, autocomplete: 'username' },
          { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail' } },
        )
      : inputNode('default', { name: 'identifier', type: 'hidden', value: options.refreshOf, required: true });
  return [
    csrfNode(),
    identifier,
    inputNode(
      'password',
      { name: 'password', type: 'password', required: true, autocomplete: 'current-password' },
      { id: 1070001, text: 'Password', type: 'info' },
    ),
    inputNode('password', { name: 'method', type: 'submit', value: 'password' }, { id: 1010001, text: 'Sign in', type: 'info' }),
  ];
}

/** Which second factors an identity can finish signing in with, and the WebAuthn options when it has keys. */
export interface SecondFactorChoices {
  totp: boolean;
  lookupSecret: boolean;
  webauthnOptions: PublicKeyCredentialRequestOptionsJSON | null;
}

/**
 * The aal2 step: one form per factor the identity has. The WebAuthn trigger carries the request options as JSON; the
 * web runs the ceremony, puts its JSON result into `webauthn_login` and submits with method=webauthn.
 */
export function secondFactorNodes(choices: SecondFactorChoices): UiNode[] {
  const nodes: UiNode[] = [csrfNode()];
  if (choices.totp) {
    nodes.push(
      inputNode(
        'totp',
        { name: 'totp_code', type: 'text', value: '', required: true, autocomplete: 'one-time-code', pattern: '[0-9]{6}' },
        factorTexts.totpCodeLabel(),
      ),
      inputNode('totp', { name: 'method', type: 'submit', value: 'totp' }, factorTexts.useTotp()),
    );
  }
  if (choices.lookupSecret) {
    nodes.push(
      inputNode('lookup_secret', { name: 'lookup_secret', type: 'text', value: '', required: true, autocomplete: 'off' }, factorTexts.lookupLabel()),
      inputNode('lookup_secret', { name: 'method', type: 'submit', value: 'lookup_secret' }, factorTexts.useLookup()),
    );
  }
  if (choices.webauthnOptions !== null) {
    nodes.push(
      inputNode('webauthn', { name: 'webauthn_login_trigger', type: 'button', value: JSON.stringify(choices.webauthnOptions) }, factorTexts.useSecurityKey()),
      inputNode('webauthn', { name: 'webauthn_login', type: 'hidden', value: '' }),
    );
  }
  return nodes;
}
