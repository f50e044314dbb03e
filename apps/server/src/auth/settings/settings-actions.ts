import type pg from 'pg';
import { z } from 'zod';
import { disableLookupCodes, generateLookupCodes, revealLookupCodes, saveLookupCodes } from '../factors/lookup-secrets';
import { sealList, unseal, unsealList, type FlowContext } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import { hasTotp, linkTotp, totpStep, unlinkTotp } from '../factors/totp';
import { canAddKey, listWebauthnCredentials, registerWebauthnKey, removeWebauthnKey, type RelyingParty } from '../factors/webauthn';
import type { SecondFactorMethod } from '../sessions/sessions';
import { passwordPolicyProblems } from '../shared/password-policy';
import { uiMessages, type UiText } from '../shared/ui-nodes';
import { emailTaken, isEmail, MAX_NAME_LENGTH, saveProfile, savePassword, type Profile } from './settings-profile';

const DEFAULT_KEY_NAME = 'Security key';

const flag = z.union([z.boolean(), z.enum(['true', 'false', ''])]).optional();
const isSet = (value: z.infer<typeof flag>): boolean => value === true || value === 'true';
const text = (max: number) => z.string().max(max).optional();

/** The node names, flat as a form posts them; JSON clients may nest the traits instead (`{traits: {email}}`). */
export const settingsBodySchema = z.object({
  csrf_token: text(200),
  method: text(64),
  'traits.email': text(320),
  'traits.name.first': text(1000),
  'traits.name.last': text(1000),
  traits: z
    .object({ email: text(320), name: z.object({ first: text(1000), last: text(1000) }).partial().optional() })
    .partial()
    .optional(),
  password: text(1024),
  totp_code: text(64),
  totp_unlink: flag,
  lookup_secret_regenerate: flag,
  lookup_secret_confirm: flag,
  lookup_secret_reveal: flag,
  lookup_secret_disable: flag,
  webauthn_register: text(65536),
  webauthn_register_displayname: text(1000),
  webauthn_remove: text(1024),
});
export type SettingsBody = z.infer<typeof settingsBodySchema>;

export type SettingsAction =
  | { kind: 'profile'; email: string | undefined; first: string | undefined; last: string | undefined }
  | { kind: 'password'; password: string | undefined }
  | { kind: 'totp_link'; code: string | undefined }
  | { kind: 'totp_unlink' }
  | { kind: 'lookup_regenerate' | 'lookup_confirm' | 'lookup_reveal' | 'lookup_disable' }
  | { kind: 'webauthn_register'; response: string | undefined; name: string | undefined }
  | { kind: 'webauthn_remove'; id: string }
  | { kind: 'unknown' };

/** Which form was submitted: a card's flag button wins over `method`, as each card posts only its own button. */
export function actionOf(body: SettingsBody): SettingsAction {
  if (body.webauthn_remove !== undefined && body.webauthn_remove !== '') return { kind: 'webauthn_remove', id: body.webauthn_remove };
  if (isSet(body.lookup_secret_confirm)) return { kind: 'lookup_confirm' };
  if (isSet(body.lookup_secret_reveal)) return { kind: 'lookup_reveal' };
  if (isSet(body.lookup_secret_regenerate)) return { kind: 'lookup_regenerate' };
  if (isSet(body.lookup_secret_disable)) return { kind: 'lookup_disable' };
  if (isSet(body.totp_unlink)) return { kind: 'totp_unlink' };
  switch (body.method) {
    case 'profile':
      return {
        kind: 'profile',
        email: body['traits.email'] ?? body.traits?.email,
        first: body['traits.name.first'] ?? body.traits?.name?.first,
        last: body['traits.name.last'] ?? body.traits?.name?.last,
      };
    case 'password':
      return { kind: 'password', password: body.password };
    case 'totp':
      return { kind: 'totp_link', code: body.totp_code };
    case 'webauthn':
      return { kind: 'webauthn_register', response: body.webauthn_register, name: body.webauthn_register_displayname };
    default:
      return { kind: 'unknown' };
  }
}

/** A credential change, or a change of the address that signs in, needs a recent sign-in (sessions.ts). */
export function needsPrivilege(action: SettingsAction, current: Profile): boolean {
  if (action.kind === 'unknown') return false;
  if (action.kind !== 'profile') return true;
  return action.email !== undefined && action.email.trim().toLowerCase() !== current.email.toLowerCase();
}

/** What an action did: saved (and whether credentials changed), codes shown, or rejected with messages and what was typed. */
export type Outcome =
  | { kind: 'saved'; context: FlowContext; credentialChanged: boolean; upgrade?: SecondFactorMethod }
  | { kind: 'shown'; context: FlowContext }
  | { kind: 'rejected'; context: FlowContext; messages: UiText[]; fieldMessages: Record<string, UiText[]>; typed?: Profile };

const rejected = (context: FlowContext, messages: UiText[], fieldMessages: Record<string, UiText[]> = {}, typed?: Profile): Outcome => ({
  kind: 'rejected',
  context,
  messages,
  fieldMessages,
  ...(typed === undefined ? {} : { typed }),
});

/** The recovery codes on show belong to the one answer after generating or revealing them; any other step hides them. */
function withoutShownCodes(context: FlowContext): FlowContext {
  return { ...context, lookup_codes: undefined, lookup_display: undefined };
}

/** Carries out one settings action for the identity; nothing is changed by a rejected one. */
export async function applySettingsAction(
  pool: pg.Pool,
  key: Buffer,
  action: SettingsAction,
  input: { identityId: string; current: Profile; flowContext: FlowContext; rp: RelyingParty },
): Promise<Outcome> {
  const { identityId, current, rp } = input;
  const flowContext = action.kind === 'lookup_regenerate' || action.kind === 'lookup_reveal' ? input.flowContext : withoutShownCodes(input.flowContext);
  switch (action.kind) {
    case 'profile': {
      const typed: Profile = {
        email: (action.email ?? current.email).trim(),
        first: (action.first ?? current.first).trim(),
        last: (action.last ?? current.last).trim(),
      };
      const problems: Record<string, UiText[]> = {};
      if (typed.email === '') problems['traits.email'] = [uiMessages.missingProperty('traits.email')];
      else if (!isEmail(typed.email)) problems['traits.email'] = [factorTexts.invalidEmail()];
      else if (await emailTaken(pool, identityId, typed.email)) problems['traits.email'] = [factorTexts.emailTaken()];
      if (typed.first.length > MAX_NAME_LENGTH) problems['traits.name.first'] = [factorTexts.nameTooLong()];
      if (typed.last.length > MAX_NAME_LENGTH) problems['traits.name.last'] = [factorTexts.nameTooLong()];
      if (Object.keys(problems).length > 0) return rejected(flowContext, [], problems, typed);
      if (!(await saveProfile(pool, identityId, typed))) return rejected(flowContext, [], { 'traits.email': [factorTexts.emailTaken()] }, typed);
      return { kind: 'saved', context: flowContext, credentialChanged: false };
    }
    case 'password': {
      if (action.password === undefined || action.password === '') return rejected(flowContext, [], { password: [uiMessages.missingProperty('password')] });
      const problems = passwordPolicyProblems(action.password, [current.email]);
      if (problems.length > 0) return rejected(flowContext, [], { password: problems });
      await savePassword(pool, identityId, current.email, action.password);
      return { kind: 'saved', context: flowContext, credentialChanged: true };
    }
    case 'totp_link': {
      if (action.code === undefined || action.code.trim() === '') return rejected(flowContext, [], { totp_code: [uiMessages.missingProperty('totp_code')] });
      if (flowContext.totp_secret === undefined || (await hasTotp(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
      const secret = unseal(key, flowContext.totp_secret);
      const step = totpStep(secret, action.code);
      if (step === null) return rejected(flowContext, [], { totp_code: [factorTexts.wrongTotpCode()] });
      await linkTotp(pool, key, identityId, secret, step);
      return { kind: 'saved', context: { ...flowContext, totp_secret: undefined }, credentialChanged: true, upgrade: 'totp' };
    }
    case 'totp_unlink': {
      if (!(await unlinkTotp(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
      return { kind: 'saved', context: flowContext, credentialChanged: true };
    }
    case 'lookup_regenerate': {
      const codes = sealList(key, generateLookupCodes());
      return { kind: 'shown', context: { ...flowContext, lookup_codes: codes, lookup_display: codes } };
    }
    case 'lookup_reveal': {
      const display = await revealLookupCodes(pool, key, identityId);
      if (display === null) return rejected(withoutShownCodes(flowContext), [factorTexts.methodNotSetUp()]);
      return { kind: 'shown', context: { ...flowContext, lookup_codes: undefined, lookup_display: sealList(key, display) } };
    }
    case 'lookup_confirm': {
      const pending = unsealList(key, input.flowContext.lookup_codes);
      if (pending === null) return rejected(flowContext, [factorTexts.lookupNothingToConfirm()]);
      await saveLookupCodes(pool, key, identityId, pending);
      return { kind: 'saved', context: flowContext, credentialChanged: true };
    }
    case 'lookup_disable': {
      if (!(await disableLookupCodes(pool, identityId))) return rejected(flowContext, [factorTexts.methodNotSetUp()]);
      return { kind: 'saved', context: flowContext, credentialChanged: true };
    }
    case 'webauthn_register': {
      const challenge = flowContext.webauthn_challenge;
      if (action.response === undefined || action.response === '' || challenge === undefined) return rejected(flowContext, [factorTexts.webauthnRegisterFailed()]);
      if (!canAddKey(await listWebauthnCredentials(pool, identityId))) return rejected(flowContext, [factorTexts.webauthnTooMany()]);
      const name = (action.name ?? '').trim().slice(0, MAX_NAME_LENGTH) || DEFAULT_KEY_NAME;
      if (!(await registerWebauthnKey(pool, rp, identityId, challenge, action.response, name))) return rejected(flowContext, [factorTexts.webauthnRegisterFailed()]);
      return { kind: 'saved', context: flowContext, credentialChanged: true, upgrade: 'webauthn' };
    }
    case 'webauthn_remove': {
      if (!(await removeWebauthnKey(pool, identityId, action.id))) return rejected(flowContext, [factorTexts.webauthnUnknownKey()]);
      return { kind: 'saved', context: flowContext, credentialChanged: true };
    }
    case 'unknown':
      return rejected(flowContext, [factorTexts.settingsMethodUnknown()]);
  }
}
