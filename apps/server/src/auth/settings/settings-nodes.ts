import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { FlowContext } from '../factors/second-factor-store';
import { unseal, unsealList } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import type { Profile } from './settings-profile';
import { totpQrDataUrl } from '../factors/totp';
import { csrfNode, inputNode, type UiNode, type UiNodeGroup, type UiText } from '../shared/ui-nodes';
import type { StoredWebauthnCredential } from '../factors/webauthn';
import { USED_CODE_TEXT } from '../factors/lookup-secrets';

/** What the settings form shows, read from the identity's credentials and the flow's context. */
export interface SettingsView {
  profile: Profile;
  totpLinked: boolean;
  lookupSaved: boolean;
  /** Codes were generated in this flow and wait for lookup_secret_confirm. */
  lookupPending: boolean;
  /** The code list is on show (after generating or revealing). */
  lookupShown: boolean;
  keys: readonly StoredWebauthnCredential[];
  /** Null once the identity holds as many keys as allowed. */
  registration: PublicKeyCredentialCreationOptionsJSON | null;
}

export const TOTP_QR_NODE = 'totp_qr';
export const TOTP_SECRET_NODE = 'totp_secret_key';
export const LOOKUP_CODES_NODE = 'lookup_secret_codes';
const QR_SIZE = 256;

function textNode(group: UiNodeGroup, id: string, text: UiText, label?: UiText): UiNode {
  return { type: 'text', group, attributes: { node_type: 'text', id, text }, messages: [], meta: label === undefined ? {} : { label } };
}

function submit(group: UiNodeGroup, name: string, value: string, label: UiText): UiNode {
  return inputNode(group, { name, type: 'submit', value }, label);
}

/**
 * The settings form, one group per card of the profile page. The nodes that would show a secret (the TOTP key and
 * its QR code, the recovery codes) are stored empty: `fillSecrets` puts the values in when the flow is sent, from the
 * flow's sealed context, so the stored `ui` never holds them.
 */
export function settingsNodes(view: SettingsView): UiNode[] {
  const nodes: UiNode[] = [
    csrfNode(),
    inputNode('profile', { name: 'traits.email', type: 'email', value: view.profile.email, required: true, autocomplete: 'email' }, factorTexts.emailLabel()),
    inputNode('profile', { name: 'traits.name.first', type: 'text', value: view.profile.first, autocomplete: 'given-name' }, factorTexts.firstNameLabel()),
    inputNode('profile', { name: 'traits.name.last', type: 'text', value: view.profile.last, autocomplete: 'family-name' }, factorTexts.lastNameLabel()),
    submit('profile', 'method', 'profile', factorTexts.save()),
    inputNode('password', { name: 'password', type: 'password', required: true, autocomplete: 'new-password' }, factorTexts.passwordLabel()),
    submit('password', 'method', 'password', factorTexts.save()),
  ];

  if (view.lookupShown) nodes.push(textNode('lookup_secret', LOOKUP_CODES_NODE, factorTexts.lookupCodes([], []), factorTexts.lookupCodesLabel()));
  if (view.lookupPending) nodes.push(submit('lookup_secret', 'lookup_secret_confirm', 'true', factorTexts.lookupConfirm()));
  if (view.lookupSaved && !view.lookupShown) nodes.push(submit('lookup_secret', 'lookup_secret_reveal', 'true', factorTexts.lookupReveal()));
  nodes.push(submit('lookup_secret', 'lookup_secret_regenerate', 'true', factorTexts.lookupRegenerate()));
  if (view.lookupSaved) nodes.push(submit('lookup_secret', 'lookup_secret_disable', 'true', factorTexts.lookupDisable()));

  if (view.totpLinked) {
    nodes.push(submit('totp', 'totp_unlink', 'true', factorTexts.totpUnlink()));
  } else {
    nodes.push(
      { type: 'img', group: 'totp', attributes: { node_type: 'img', id: TOTP_QR_NODE, src: '', width: QR_SIZE, height: QR_SIZE }, messages: [], meta: { label: factorTexts.totpQrLabel() } },
      textNode('totp', TOTP_SECRET_NODE, factorTexts.totpSecret(''), factorTexts.totpSecretLabel()),
      inputNode('totp', { name: 'totp_code', type: 'text', value: '', required: true, autocomplete: 'one-time-code', pattern: '[0-9]{6}' }, factorTexts.totpVerifyLabel()),
      submit('totp', 'method', 'totp', factorTexts.save()),
    );
  }

  if (view.registration !== null) {
    nodes.push(
      inputNode('webauthn', { name: 'webauthn_register_displayname', type: 'text', value: '' }, factorTexts.webauthnNameLabel()),
      inputNode('webauthn', { name: 'webauthn_register_trigger', type: 'button', value: JSON.stringify(view.registration) }, factorTexts.webauthnRegister()),
      inputNode('webauthn', { name: 'webauthn_register', type: 'hidden', value: '' }),
    );
  }
  for (const key of view.keys) nodes.push(submit('webauthn', 'webauthn_remove', key.id, factorTexts.webauthnRemove(key.name, key.created_at)));
  return nodes;
}

/** The recovery-code list node's text: each code, or 'Used' for a spent one, also joined into one line. */
function lookupCodesText(display: readonly string[]): UiText {
  const secrets = display.map((text) => (text === USED_CODE_TEXT ? factorTexts.lookupUsed() : factorTexts.lookupCode(text)));
  return factorTexts.lookupCodes(display, secrets);
}

/** Puts the flow's secrets into the nodes that show them, for the one answer going to the flow's owner. */
export async function fillSecrets(nodes: readonly UiNode[], context: FlowContext, key: Buffer, totpLabel: string): Promise<UiNode[]> {
  const totpSecret = context.totp_secret === undefined ? null : unseal(key, context.totp_secret);
  const display = unsealList(key, context.lookup_display);
  const qr = totpSecret === null ? null : await totpQrDataUrl(totpSecret, totpLabel);
  return nodes.map((node) => {
    const attributes = node.attributes;
    if (attributes.node_type === 'img' && attributes.id === TOTP_QR_NODE && qr !== null) return { ...node, attributes: { ...attributes, src: qr } };
    if (attributes.node_type === 'text' && attributes.id === TOTP_SECRET_NODE && totpSecret !== null) {
      return { ...node, attributes: { ...attributes, text: factorTexts.totpSecret(totpSecret) } };
    }
    if (attributes.node_type === 'text' && attributes.id === LOOKUP_CODES_NODE && display !== null) {
      return { ...node, attributes: { ...attributes, text: lookupCodesText(display) } };
    }
    return node;
  });
}
